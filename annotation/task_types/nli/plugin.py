"""The nli task type (IndoNLI, Mahendra et al. 2021): a premise, six hypotheses per writer, validation
in rounds (2, then +1, then +1) and gold when three labels agree.

The plugin declares: a hook that is a pure function of the modules beside it is given as a staticmethod;
a method is written only where it reads the project's settings or combines hooks."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from annotation.task_types.base import (
    BenchmarkSpec,
    CategoricalItem,
    CategoricalJudgment,
    GoldCase,
    GoldOutcome,
    JudgingRule,
    PayloadCheck,
    TaskType,
    register,
)
from annotation.task_types.nli import benchmark as nli_benchmark
from annotation.task_types.nli import demo as nli_demo
from annotation.task_types.nli import examples as nli_examples
from annotation.task_types.nli import export as nli_export
from annotation.task_types.nli import judging, payload
from annotation.task_types.nli import reports as nli_reports
from annotation.task_types.nli.checks import HYPOTHESES_PER_PREMISE
from annotation.task_types.nli.forms import (
    NliAuthorForm,
    NliValidationForm,
    item_initial,
    item_payload,
)
from annotation.task_types.nli.labels import CONTRADICTION, ENTAILMENT, LABELS, NEUTRAL, normalize_label
from annotation.task_types.nli.rounds import ROUND_SIZES
from annotation.task_types.nli.settings import SETTINGS, fill_validation_default, is_expert
from annotation.task_types.nli.splits import DEV, TEST_EXPERT, TEST_LAY, TRAIN
from annotation.task_types.nli.unit_authoring import NliUnitAuthoring

# QC error types for hypotheses: the validation instruction's errors (Appendix E) and the writing
# instruction's criteria (Appendix D).
NLI_ERROR_TYPES = [
    ("ungrammatical", _("Ungrammatical"), _("Not grammatical Indonesian (Appendix D, E).")),
    ("incomplete", _("Incomplete"), _("An unfinished or truncated sentence.")),
    ("punctuation", _("Wrong punctuation"), _("Punctuation, spelling or capitalisation errors.")),
    ("not_one_sentence", _("More than one sentence"), _("A hypothesis must be a single sentence.")),
    ("no_keyword", _("No keyword of the premise"), _("It shares no keyword with the premise.")),
    ("copies_premise", _("Copies the premise"), _("Identical to a sentence of the premise.")),
    ("wrong_label", _("Wrong label"), _("The label does not follow from the premise.")),
    ("wrong_tags", _("Wrong phenomenon tags"), _("The inference phenomena tagged are not the ones at work.")),
]


@register
class NliTaskType(TaskType):
    name = "nli"
    label = _("NLI (premise + 6 hypotheses, validation rounds)")
    author_template = "annotation/task_types/nli/author_form.html"
    display_template = "annotation/task_types/nli/item_display.html"
    judge_template = "annotation/task_types/nli/validation_form.html"
    unit_word = pgettext_lazy("unit", "premise")
    unit_words = pgettext_lazy("unit", "premises")
    default_error_types = NLI_ERROR_TYPES
    settings_spec = SETTINGS
    labels = LABELS
    items_per_unit = HYPOTHESES_PER_PREMISE
    # one writer per premise (the paper): the project's authors_per_concept starts at this
    authors_per_unit_default = 1
    judgment_keys = dict(judging.KEYS)
    gold_policy = judging.POLICY
    agreement_level = "nominal"
    value_labels = {
        ENTAILMENT: _("entailment"),
        NEUTRAL: _("neutral"),
        CONTRADICTION: _("contradiction"),
        TRAIN: pgettext_lazy("nli split", "train"),
        DEV: pgettext_lazy("nli split", "dev"),
        TEST_LAY: pgettext_lazy("nli split", "test (lay)"),
        TEST_EXPERT: pgettext_lazy("nli split", "test (expert)"),
    }

    # --- settings ----------------------------------------------------------------------------------
    def settings_clean(self, data: dict[str, Any]) -> dict[str, Any]:
        return super().settings_clean(fill_validation_default(data) if isinstance(data, dict) else data)

    def review_required(self, settings: dict[str, Any]) -> bool:
        return bool(settings.get("qc_review", True))

    # --- payload: one hypothesis (payload.py); the author form holds the premise's six (forms.py) ----
    normalize_payload = staticmethod(payload.normalize)
    check_payload = staticmethod(payload.check)
    diff = staticmethod(payload.diff)
    summary = staticmethod(payload.summary)
    form_initial = staticmethod(item_initial)
    payload_from_form = staticmethod(item_payload)

    def form_class(self) -> type:
        return NliAuthorForm

    # --- authoring: six hypotheses per premise, imported premises (unit_authoring.py) -----------------
    unit_authoring = NliUnitAuthoring()

    def check_unit(
        self,
        payloads: list[dict[str, Any]],
        *,
        concept: str | None,
        unit_data: dict[str, Any],
        settings: dict[str, Any],
    ) -> PayloadCheck:
        return payload.check_unit(payloads, premise=unit_data.get("text", ""), expert=is_expert(settings))

    # --- judging: validation in rounds (rounds.py), labels e / n / c (judging.py) ---------------------
    judge_view = staticmethod(judging.judge_view)
    normalize_judgment = staticmethod(judging.normalize_judgment)

    def judging_rule(self, settings: dict[str, Any]) -> JudgingRule:
        per_round = tuple(ROUND_SIZES[n] for n in sorted(ROUND_SIZES))
        return JudgingRule(
            kind="validate",
            per_round=per_round,
            share=settings["validation_percent"] / 100,
            activity=pgettext_lazy("judging", "Validation"),
            judges=pgettext_lazy("judging", "validators"),
            verb=pgettext_lazy("judging", "validate"),
            verb_past=pgettext_lazy("judging", "validated"),
            noun=pgettext_lazy("judging", "label"),
        )

    def judgment_form_class(self) -> type:
        return NliValidationForm

    # --- gold and agreement ------------------------------------------------------------------------
    gold_decide = staticmethod(judging.gold_decide)
    gold_memo_key = staticmethod(judging.gold_memo_key)
    # What gold_decide reads of the payload: the writer's label (a project's recompute is then set-based).
    gold_payload_keys = ("label",)

    def categorical_item(
        self, *, item_id: int, author_id: int | None, case: GoldCase, outcome: GoldOutcome
    ) -> CategoricalItem | None:
        """The writer's label and the validators' labels: the rule counts the writer's as one of the
        three votes, so the model does too."""
        votes = []
        author_label = self.agreement_value(case.payload)
        if author_id is not None and author_label is not None:
            votes.append(CategoricalJudgment(item_id, author_id, author_label))
        for j in case.judgments:
            label = self.agreement_value(j.value)
            if label is not None:
                votes.append(CategoricalJudgment(item_id, j.user_id, label))
        rule_label = outcome.details.get("label") if outcome.outcome == "gold" else None
        return CategoricalItem(tuple(votes), rule_label)

    def agreement_value(self, value: dict[str, Any]) -> Any:
        try:
            return normalize_label((value or {}).get("label"))
        except ValueError:
            return None

    def known_answer_choices(self, payload: dict[str, Any]) -> tuple[str, ...]:
        return LABELS

    # --- reports and export (reports.py, export.py, splits.py) --------------------------------------
    report_template = "annotation/task_types/nli/report.html"
    report_sections = staticmethod(nli_reports.report_sections)
    export_fields = nli_export.EXPORT_FIELDS
    export_row = staticmethod(nli_export.export_row)
    export_split = staticmethod(nli_export.export_split)
    parquet_schema = staticmethod(nli_export.parquet_schema)
    datacard_text = staticmethod(nli_export.datacard_text)

    # --- benchmark: the three labels, a prompt in Indonesian and one in English --------------------
    benchmark_item = staticmethod(nli_benchmark.benchmark_item)

    def benchmark(self) -> BenchmarkSpec:
        return nli_benchmark.SPEC

    # --- demo and contract -------------------------------------------------------------------------
    demo = staticmethod(nli_demo.demo_project)
    contract_examples = staticmethod(nli_examples.contract_examples)
