"""Gold decisions taken once per distinct case (TaskType.gold_memo_key), for the engines that decide
many items at once: qc.gold's recompute and the import engine."""

from __future__ import annotations

from collections.abc import Hashable

from annotation.task_types.base import GoldCase, GoldOutcome, TaskType


class GoldMemo:
    """gold_decide through a dictionary of outcomes by the task type's memo key (per engine run)."""

    def __init__(self, task_type: TaskType, limit: int = 65536) -> None:
        self.task_type = task_type
        self.outcomes: dict[Hashable, GoldOutcome] = {}
        self.limit = limit  # a task type whose keys rarely repeat must not fill the memory

    def decide(self, case: GoldCase) -> GoldOutcome:
        key = self.task_type.gold_memo_key(case)
        if key is None:
            return self.task_type.gold_decide(case)
        try:
            outcome = self.outcomes.get(key)
        except TypeError:  # an unhashable value in the key: decided on its own
            return self.task_type.gold_decide(case)
        if outcome is None:
            if len(self.outcomes) >= self.limit:
                self.outcomes.clear()
            outcome = self.outcomes[key] = self.task_type.gold_decide(case)
        return outcome
