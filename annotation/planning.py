"""Balanced assignment planning, as a pure function (no ORM).

Used for authoring (units = concepts, k authors each) and cross-answering (units = items, m answerers
each, the author excluded). Greedy least-loaded: every slot goes to the eligible worker with the
smallest load in the unit's group (category), then the smallest total load, then a seeded random rank.
Starting from equal loads this keeps every worker's per-group load within one of every other's, and
the total load within one as well.
"""

from __future__ import annotations

import heapq
import random
from collections import defaultdict
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Unit:
    id: int
    group: int


@dataclass(frozen=True)
class PlannedSlot:
    unit_id: int
    worker_id: int
    position: int


class PlanningError(ValueError):
    pass


def plan_balanced(
    *,
    units: Sequence[Unit],
    workers: Sequence[int],
    per_unit: int,
    seed: int,
    held: Mapping[int, Collection[int]] | None = None,
    excluded: Mapping[int, Collection[int]] | None = None,
) -> list[PlannedSlot]:
    """Return the new (unit, worker) slots that bring every unit to `per_unit` distinct workers.

    held: unit -> workers already holding it (started or done work that must not move); they count
          towards the unit's quota and towards their loads, and are never planned again.
    excluded: unit -> workers who may never get it (its author).
    Raises PlanningError when some unit cannot get enough eligible workers.
    """
    held = held or {}
    excluded = excluded or {}
    if per_unit < 1:
        raise PlanningError("Each unit needs at least one worker.")
    rng = random.Random(seed)
    ordered_workers = sorted(set(workers))
    worker_set = set(ordered_workers)
    ranks = dict(zip(ordered_workers, rng.sample(range(len(ordered_workers)), len(ordered_workers)), strict=True))

    group_load: dict[tuple[int, int], int] = defaultdict(int)
    total_load: dict[int, int] = defaultdict(int)
    by_group: dict[int, list[Unit]] = defaultdict(list)
    for unit in units:
        by_group[unit.group].append(unit)
        for w in held.get(unit.id, ()):
            if w in worker_set:
                group_load[(unit.group, w)] += 1
                total_load[w] += 1

    slots: list[PlannedSlot] = []
    position = 0
    for group in sorted(by_group):
        group_units = sorted(by_group[group], key=lambda u: u.id)
        rng.shuffle(group_units)
        heap = [(group_load[(group, w)], total_load[w], ranks[w], w) for w in ordered_workers]
        heapq.heapify(heap)
        for unit in group_units:
            taken = set(held.get(unit.id, ()))
            need = per_unit - len(taken)
            if need <= 0:
                continue
            blocked = taken | set(excluded.get(unit.id, ()))
            chosen, skipped = [], []
            while heap and len(chosen) < need:
                entry = heapq.heappop(heap)
                (chosen if entry[3] not in blocked else skipped).append(entry)
            if len(chosen) < need:
                raise PlanningError(
                    f"Unit {unit.id} needs {per_unit} workers but only {len(taken) + len(chosen)} are eligible."
                )
            for gl, tl, rank, w in chosen:
                slots.append(PlannedSlot(unit_id=unit.id, worker_id=w, position=position))
                position += 1
                group_load[(group, w)] = gl + 1
                total_load[w] = tl + 1
                heapq.heappush(heap, (gl + 1, tl + 1, rank, w))
            for entry in skipped:
                heapq.heappush(heap, entry)
    return slots


def loads_by_group(pairs: Iterable[tuple[int, int]], unit_group: Mapping[int, int]) -> dict[int, dict[int, int]]:
    """group -> worker -> count, for checking a plan's balance."""
    out: dict[int, dict[int, int]] = defaultdict(lambda: defaultdict(int))
    for unit_id, worker in pairs:
        out[unit_group[unit_id]][worker] += 1
    return {g: dict(v) for g, v in out.items()}
