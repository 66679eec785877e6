"""The gold part of the task-type contract: the rule that turns an item's judgments into gold, and agreement."""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import Any, ClassVar

from annotation.task_types.contract.marks import required
from annotation.task_types.records import CategoricalItem, GoldCase, GoldOutcome, RankedModels, ReportRows


class GoldHooks:
    """Gold: the published rule deciding an item's gold from its judgments (`GoldCase` -> `GoldOutcome`), how
    its cases are shared out to decide each once, the labels given to the core's aggregation model, the
    ranking of models, and the value inter-annotator agreement is computed on.

    A task type must give: `gold_policy`, `gold_decide`, `agreement_value`. Without the rest every case
    is decided in Python on its own and no aggregation model or ranking is fitted.
    """

    # The rule's name and version, stored on every GoldDecision ("csqa_majority_v1").
    gold_policy: ClassVar[str]

    @required
    def gold_decide(self, case: GoldCase) -> GoldOutcome:
        raise NotImplementedError

    # The payload keys gold_decide reads (with .get), when it reads nothing else of the payload and
    # never a judgment's id nor who judged (as gold_memo_key leaves them out): qc.gold then decides a
    # whole project set-based on PostgreSQL (each distinct case - those keys, the round, the judgments'
    # rounds, values and flags in annotator order - decided once, saved by joins). None: every item's
    # case is built in Python.
    gold_payload_keys: ClassVar[tuple[str, ...] | None] = None

    def gold_memo_key(self, case: GoldCase) -> Hashable | None:
        """A key naming everything gold_decide reads of `case`, so that cases with equal keys get
        equal outcomes; None: decide every case.

        The gold engines (qc.gold, the import engine) decide each key once per recompute or file and
        give its outcome to every case with that key: 120,000 validated pairs have a few dozen keys
        (the labels in order), so deciding them costs a dictionary lookup each. The outcome is shared
        between items: its `details` must not be changed afterwards. A key that can't be hashed (a
        value outside the task type's vocabulary) just means that case is decided on its own.
        """
        return None

    # --- aggregation model ---------------------------------------------------------------------------
    def categorical_item(
        self, *, item_id: int, author_id: int | None, case: GoldCase, outcome: GoldOutcome
    ) -> CategoricalItem | None:
        """The item's judgments as labels for the core's aggregation model (Dawid-Skene, GLAD, MACE),
        with the label the published rule gave (`outcome`, gold_decide(case)). A task type whose rule
        counts the author's own label as a vote may give it as a judgment by `author_id`. None (the
        default): the task type has no categorical judgments, and no model is fitted."""
        return None

    def model_ranking(self, rows: ReportRows) -> RankedModels | None:
        """A ranking of the models behind the items (e.g. Bradley-Terry from pairwise comparisons), fitted by
        the core's background aggregation task and shown on the report. Given the report's rows
        (settings, items and judgments only: no gold, no annotators). None (the default): the task type
        ranks no models."""
        return None

    # --- agreement ---------------------------------------------------------------------------------
    agreement_level: ClassVar[str] = "nominal"  # nominal | ordinal | interval (krippendorff levels)
    # For the core's streaming agreement figures over very large projects (qc.reports.alpha_for_project,
    # conflicts_for_project): the key holding the value in Judgment.value and in the author's payload,
    # and the values that count (anything else is left out). "" / (): the task type has no fast path.
    agreement_key: ClassVar[str] = ""
    agreement_domain: ClassVar[tuple[str, ...]] = ()
    # The words for the task type's own value codes (labels, split names) on the core's pages: code ->
    # gettext_lazy label. Stored values and exports keep the codes; a code not listed is shown as is.
    value_labels: ClassVar[Mapping[str, str]] = {}

    @required
    def agreement_value(self, value: dict[str, Any]) -> Any:
        """The value agreement is computed on (the chosen letter, the label); None if not given."""
        raise NotImplementedError

    def agreement_domain_of(self, payload: dict[str, Any]) -> tuple[str, ...]:
        """The values agreement_value can give for this item: what adaptive judging's posterior ranges
        over. Default: agreement_domain, the same for every item; a task type whose options depend on
        the item (KALAHI's responses) names them. () : no categorical value (no adaptive judging)."""
        return tuple(self.agreement_domain)

    def known_answer_choices(self, payload: dict[str, Any]) -> tuple[str, ...]:
        """The answers a known-answer check of this item may expect. Default: agreement_domain_of.
        () : the task type's judgments have no single right answer (no checks)."""
        return self.agreement_domain_of(payload)
