"""Known-answer checks, the pure part: where checks go in judges' queues, and how each judge scores.

No ORM here (annotation.services.known_answers reads the inputs and saves the outputs), so the rate,
the order and the figures are tested on plain lists.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any


def mix_checks(
    *,
    item_ids: Sequence[int],
    user_ids: Sequence[int],
    checks: Sequence[int],
    every: int,
    seed: int,
    refused: dict[int, set[int]] | None = None,
) -> tuple[list[int], list[int]]:
    """A plan's slots in queue order, with a known-answer check as each judge's every `every`-th item.

    item_ids/user_ids: slot i is item_ids[i] for user_ids[i], in queue order, an item's slots
    consecutive (as the planners give them). After every `every - 1` ordinary items of a judge, the
    next check for them goes right after the end of that item's run of slots, so an item's slots stay
    consecutive (PlannedBlock holds whole units). Each judge's checks come from their own shuffle of
    `checks` (seeded by the plan seed and the judge, so the same seed gives the same queue), never one
    in `refused[user]` (their own items, checks they hold already); a judge who has had every check
    gets no more. every < 2 or no checks: the slots unchanged.
    """
    if every < 2 or not checks:
        return list(item_ids), list(user_ids)
    refused = refused or {}
    pools: dict[int, list[int]] = {}
    counts: dict[int, int] = defaultdict(int)
    due: list[int] = []
    out_items: list[int] = []
    out_users: list[int] = []

    def next_check(user_id: int) -> int | None:
        pool = pools.get(user_id)
        if pool is None:
            blocked = refused.get(user_id, set())
            pool = [c for c in sorted(checks) if c not in blocked]
            random.Random(f"{seed}:checks:{user_id}").shuffle(pool)
            pool.reverse()  # popped from the end: the shuffle's first check comes first
            pools[user_id] = pool
        return pool.pop() if pool else None

    total = len(item_ids)
    for i, (item_id, user_id) in enumerate(zip(item_ids, user_ids, strict=True)):
        out_items.append(item_id)
        out_users.append(user_id)
        counts[user_id] += 1
        if counts[user_id] == every - 1:
            counts[user_id] = 0
            due.append(user_id)
        if due and (i + 1 == total or item_ids[i + 1] != item_id):
            for judge in due:
                check = next_check(judge)
                if check is not None:
                    out_items.append(check)
                    out_users.append(judge)
            due = []
    return out_items, out_users


@dataclass(frozen=True)
class CheckScore:
    """One judge's known-answer checks: how many answered, how many right."""

    checks: int
    correct: int

    @property
    def accuracy(self) -> float | None:
        return self.correct / self.checks if self.checks else None

    @property
    def percent(self) -> int | None:
        return None if self.accuracy is None else round(self.accuracy * 100)


def score_checks(rows: Iterable[tuple[int, Any, str]], answer_of: Callable[[Any], Any]) -> dict[int, CheckScore]:
    """rows: (judge, judgment value, known answer); answer_of: the task type's agreement_value."""
    checks: dict[int, int] = defaultdict(int)
    correct: dict[int, int] = defaultdict(int)
    for user_id, value, known in rows:
        checks[user_id] += 1
        if answer_of(value) == known:
            correct[user_id] += 1
    return {user_id: CheckScore(checks=n, correct=correct[user_id]) for user_id, n in checks.items()}


def pause_due(score: CheckScore, *, below_percent: int, after_checks: int) -> bool:
    """Is the judge below the project's accuracy floor after enough checks? (below_percent 0: never)."""
    if below_percent <= 0 or score.checks < max(after_checks, 1):
        return False
    return score.correct * 100 < below_percent * score.checks
