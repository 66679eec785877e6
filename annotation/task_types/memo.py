"""Gold decisions taken once per distinct case (TaskType.gold_memo_key), for the engines that decide
many items at once: qc.gold's recompute and the import engine."""

from __future__ import annotations

from collections.abc import Hashable, Mapping

from annotation import adaptive
from annotation.task_types.base import GoldCase, GoldOutcome, TaskType


class GoldMemo:
    """gold_decide through a dictionary of outcomes by the task type's memo key (per engine run).

    A project with adaptive judging (annotation.adaptive) then turns a pending decision into gold or a
    request for one more judge; that step depends on who judged (their accuracy), so it is not memoised.
    `accuracy`: judge's user id -> accuracy from the project's last aggregation fit.
    """

    def __init__(self, task_type: TaskType, limit: int = 65536, accuracy: Mapping[int, float] | None = None) -> None:
        self.task_type = task_type
        self.outcomes: dict[Hashable, GoldOutcome] = {}
        self.limit = limit  # a task type whose keys rarely repeat must not fill the memory
        self.accuracy = accuracy or {}

    def decide(self, case: GoldCase) -> GoldOutcome:
        outcome = self._published(case)
        if not adaptive.is_adaptive(case.settings):
            return outcome
        domain = self.task_type.agreement_domain_of(case.payload)
        rule = self.task_type.judging_rule(case.settings)
        if rule is None or not domain:
            return outcome
        value = self.task_type.agreement_value
        return adaptive.adaptive_outcome(
            case,
            outcome,
            labels=[(row.user_id, value(row.value)) for row in case.judgments],
            domain=domain,
            accuracy=self.accuracy,
            rule=rule,
        )

    def _published(self, case: GoldCase) -> GoldOutcome:
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
