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
from typing import NamedTuple


@dataclass(frozen=True)
class Unit:
    id: int
    group: int


class PlannedSlot(NamedTuple):
    # A tuple, not a dataclass: a cross-answer plan makes 500,000 of them.
    unit_id: int
    worker_id: int
    position: int


class PlanningError(ValueError):
    pass


def plan_balanced(**kwargs) -> list[PlannedSlot]:
    """The plan as slots (unit, worker, position); see plan_balanced_columns for the arguments."""
    unit_ids, worker_ids = plan_balanced_columns(**kwargs)
    return [PlannedSlot(u, w, position) for position, (u, w) in enumerate(zip(unit_ids, worker_ids, strict=True))]


def plan_balanced_columns(
    *,
    units: Sequence[Unit],
    workers: Sequence[int],
    per_unit: int,
    seed: int,
    held: Mapping[int, Collection[int]] | None = None,
    excluded: Mapping[int, Collection[int]] | None = None,
    preferred: Mapping[int, Collection[int]] | None = None,
) -> tuple[list[int], list[int]]:
    """Return the new (unit, worker) slots that bring every unit to `per_unit` distinct workers, as two
    columns (unit ids, worker ids) in queue order: slot i has position i. Columns rather than one tuple
    per slot: a plan for 100,000 items makes 500,000 slots, and their tuples alone took a quarter second.

    held: unit -> workers already holding it (started or done work that must not move); they count
          towards the unit's quota and towards their loads, and are never planned again.
    excluded: unit -> workers who may never get it (its author).
    preferred: unit -> workers who hold it as unstarted work from an earlier plan. They keep it unless
          balance needs it elsewhere, so a re-plan after someone joins or leaves moves only what it
          must instead of reshuffling every queue.
    Raises PlanningError when some unit cannot get enough eligible workers.
    """
    held = held or {}
    excluded = excluded or {}
    preferred = preferred or {}
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

    unit_column: list[int] = []
    worker_column: list[int] = []
    for group in sorted(by_group):
        group_units = sorted(by_group[group], key=lambda u: u.id)
        rng.shuffle(group_units)
        planned: dict[int, list[int]] = {}
        # 1. Earlier unstarted work stays where it is, for now (nothing to keep on a first plan).
        for unit in group_units if preferred else ():
            room = per_unit - len(held.get(unit.id, ()))
            blocked = set(held.get(unit.id, ())) | set(excluded.get(unit.id, ()))
            for w in sorted(preferred.get(unit.id, ())):
                if room > 0 and w in worker_set and w not in blocked:
                    planned.setdefault(unit.id, []).append(w)
                    group_load[(group, w)] += 1
                    total_load[w] += 1
                    room -= 1
        # 2. Open slots go to the least-loaded eligible workers.
        _fill_least_loaded(
            group, group_units, per_unit, held, excluded, planned, ordered_workers, ranks, group_load, total_load
        )
        # 3. Kept work may leave the group unbalanced (a newcomer has none): move single units from the
        #    most- to the least-loaded worker until every load is within one of every other.
        _rebalance(group, group_units, held, excluded, planned, ordered_workers, ranks, group_load, total_load)
        add_units, add_workers = unit_column.extend, worker_column.extend
        for unit in group_units:
            chosen = planned.get(unit.id)
            if chosen:
                add_units([unit.id] * len(chosen))
                add_workers(chosen)
    return unit_column, worker_column


def _fill_least_loaded(group, group_units, per_unit, held, excluded, planned, workers, ranks, group_load, total_load):
    # The inner loop of every plan (500,000 slots for 100,000 items x 5 judges): loads of this group in a
    # dict of their own (not keyed by (group, worker) tuples built on every look-up) and no sets built for
    # a unit nobody holds yet. Same choices as the plain form: least group load, then total, then rank.
    loads = {w: group_load[(group, w)] for w in workers}
    heap = [(loads[w], total_load[w], ranks[w], w) for w in workers]
    heapq.heapify(heap)
    heappop, heappush = heapq.heappop, heapq.heappush
    no_one: tuple[int, ...] = ()
    for unit in group_units:
        uid = unit.id
        held_by, planned_for = held.get(uid, no_one), planned.get(uid)
        if held_by or planned_for:
            taken = set(held_by) | set(planned_for or no_one)
            need = per_unit - len(taken)
            if need <= 0:
                continue
            blocked = taken | set(excluded.get(uid, no_one))
        else:
            taken, need = no_one, per_unit
            blocked = excluded.get(uid, no_one)
        chosen, skipped = [], []
        while heap and len(chosen) < need:
            entry = heappop(heap)
            w = entry[3]
            # Entries go stale when step 1 or an earlier unit raised the worker's load; refresh them.
            if entry[0] != loads[w] or entry[1] != total_load[w]:
                heappush(heap, (loads[w], total_load[w], entry[2], w))
                continue
            (skipped if w in blocked else chosen).append(entry)
        if len(chosen) < need:
            raise PlanningError(
                f"Unit {uid} needs {per_unit} workers but only {len(taken) + len(chosen)} are eligible."
            )
        mine = planned.setdefault(uid, [])
        for gl, tl, rank, w in chosen:
            mine.append(w)
            loads[w] = gl + 1
            total_load[w] = tl + 1
            heappush(heap, (gl + 1, tl + 1, rank, w))
        for entry in skipped:
            heappush(heap, entry)
    for w, load in loads.items():
        group_load[(group, w)] = load


def _balanced(group, workers, group_load, total_load) -> bool:
    in_group = [group_load[(group, w)] for w in workers]
    totals = [total_load[w] for w in workers]
    return max(in_group) - min(in_group) <= 1 and max(totals) - min(totals) <= 1


def _rebalance(group, group_units, held, excluded, planned, workers, ranks, group_load, total_load):
    if _balanced(group, workers, group_load, total_load):
        return  # the usual case (a first plan): no need to index every planned unit by worker
    units_of: dict[int, list[int]] = defaultdict(list)
    for unit in group_units:
        for w in planned.get(unit.id, ()):
            units_of[w].append(unit.id)
    while True:
        by_load = sorted(workers, key=lambda w: (group_load[(group, w)], total_load[w], ranks[w]))
        low = by_load[0]
        if group_load[(group, by_load[-1])] - group_load[(group, low)] <= 1 and (
            max(total_load[w] for w in workers) - min(total_load[w] for w in workers) <= 1
        ):
            return
        moved = False
        for high in reversed(by_load):
            gap = group_load[(group, high)] - group_load[(group, low)]
            # A gap of one may still move when it evens out the totals across groups.
            if gap <= 0 or (gap == 1 and total_load[high] - total_load[low] <= 1):
                continue
            for unit_id in reversed(units_of[high]):
                if low in planned[unit_id] or low in held.get(unit_id, ()) or low in excluded.get(unit_id, ()):
                    continue
                planned[unit_id][planned[unit_id].index(high)] = low
                units_of[high].remove(unit_id)
                units_of[low].append(unit_id)
                group_load[(group, high)] -= 1
                total_load[high] -= 1
                group_load[(group, low)] += 1
                total_load[low] += 1
                moved = True
                break
            if moved:
                break
        if not moved:
            return


def loads_by_group(pairs: Iterable[tuple[int, int]], unit_group: Mapping[int, int]) -> dict[int, dict[int, int]]:
    """group -> worker -> count, for checking a plan's balance."""
    out: dict[int, dict[int, int]] = defaultdict(lambda: defaultdict(int))
    for unit_id, worker in pairs:
        out[unit_group[unit_id]][worker] += 1
    return {g: dict(v) for g, v in out.items()}
