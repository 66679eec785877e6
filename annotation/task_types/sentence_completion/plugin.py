from typing import Any

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from annotation.task_types.base import (
    BenchmarkItem,
    BenchmarkSpec,
    CategoricalItem,
    CategoricalJudgment,
    ExportRecord,
    GoldCase,
    GoldOutcome,
    JudgeItem,
    JudgingRule,
    JudgmentInput,
    PayloadCheck,
    ProjectPage,
    TaskType,
    register,
)
from annotation.task_types.sentence_completion import demo as completion_demo
from annotation.task_types.sentence_completion import export as completion_export
from annotation.task_types.sentence_completion import gold as completion_gold
from annotation.task_types.sentence_completion import judging as completion_judging
from annotation.task_types.sentence_completion import payload as completion_payload
from annotation.task_types.sentence_completion import report as completion_report
from annotation.task_types.sentence_completion.country_scope import CompletionCountryScope
from annotation.task_types.sentence_completion.forms import CompletionAuthorForm
from annotation.task_types.sentence_completion.payload import LETTERS
from annotation.task_types.sentence_completion.settings import SETTINGS
from annotation.task_types.sentence_completion.unit_picking import CompletionUnitPicking

# Stage 1 (national review) checks language and guideline compliance (Sadallah et al. 2025, Section 3).
COMPLETION_ERROR_TYPES = [
    ("language", _("Language error"), _("Spelling, grammar or not Modern Standard Arabic.")),
    ("not_plausible", _("A completion is not plausible"), _("All three must be grammatical and logical.")),
    ("several_right", _("More than one culturally right"), _("Only one completion may be culturally right.")),
    ("none_right", _("No completion is culturally right"), _("The marked one is not right in this country.")),
    ("not_cultural", _("Not cultural commonsense"), _("Needs no cultural knowledge, or is a fact, not commonsense.")),
    ("wrong_topic", _("Wrong topic or subtopic"), _("The item does not fit its topic.")),
    ("wrong_relevance", _("Relevance flags wrong"), _("Country-specific versus shared is marked wrongly.")),
]

_YES_NO = {True: "yes", False: "no"}


@register
class CompletionTaskType(TaskType):
    name = "sentence_completion"
    report_section = "completion"  # the `report --json` object's key (the name)
    label = _("Sentence completion (premise + 3 completions, country QC)")
    author_template = "annotation/task_types/sentence_completion/author_form.html"
    display_template = "annotation/task_types/sentence_completion/item_display.html"
    judge_template = "annotation/task_types/sentence_completion/answer_form.html"
    unit_word = pgettext_lazy("unit", "writing slot")
    unit_words = pgettext_lazy("unit", "writing slots")
    project_pages = (
        ProjectPage("arabculture_leaderboard", pgettext_lazy("page", "ArabCulture leaderboard"), ("admin", "reviewer")),
    )
    project_panels_template = "annotation/task_types/sentence_completion/project_panels.html"
    default_error_types = COMPLETION_ERROR_TYPES
    settings_spec = SETTINGS
    authors_per_unit_default = 1
    # The author picks topic and subtopic from the project's list; the plan's unit is preset.
    unit_picking = CompletionUnitPicking()

    # --- payload -----------------------------------------------------------------------------------
    normalize_payload = staticmethod(completion_payload.normalize)

    def check_payload(self, payload: dict[str, Any], *, concept: str | None) -> PayloadCheck:
        return completion_payload.check(payload)

    def check_unit(
        self,
        payloads: list[dict[str, Any]],
        *,
        concept: str | None,
        unit_data: dict[str, Any],
        settings: dict[str, Any],
    ) -> PayloadCheck:
        return completion_payload.check(payloads[0], script=settings.get("script", "arabic"))

    def form_class(self) -> type:
        return CompletionAuthorForm

    def form_initial(self, payload: dict[str, Any]) -> dict[str, Any]:
        initial: dict[str, Any] = {
            "premise": payload.get("premise", ""),
            "answer": payload.get("answer", ""),
            "country": payload.get("country", ""),
        }
        if payload.get("topic") or payload.get("subtopic"):
            initial["topic"], initial["subtopic"] = payload.get("topic", ""), payload.get("subtopic", "")
        for letter, text in zip(LETTERS, payload.get("completions", []), strict=False):
            initial[f"completion_{letter.lower()}"] = text
        for field in ("relevant_to_this_country", "relevant_to_other_countries"):
            initial[field] = _YES_NO.get(payload.get(field), "")
        return initial

    def payload_from_form(self, cleaned_data: dict[str, Any]) -> dict[str, Any]:
        return self.normalize_payload(
            {
                "premise": cleaned_data.get("premise", ""),
                "completions": [cleaned_data.get(f"completion_{letter.lower()}", "") for letter in LETTERS],
                "answer": cleaned_data.get("answer", ""),
                "country": cleaned_data.get("country", ""),
                "topic": cleaned_data.get("topic", ""),
                "subtopic": cleaned_data.get("subtopic", ""),
                "relevant_to_this_country": cleaned_data.get("relevant_to_this_country") or None,
                "relevant_to_other_countries": cleaned_data.get("relevant_to_other_countries") or None,
            }
        )

    diff = staticmethod(completion_payload.diff)

    def summary(self, payload: dict[str, Any]) -> str:
        return payload.get("premise", "")

    # --- QC scope: review and judging inside the author's country ----------------------------------
    country_scope = CompletionCountryScope()

    # --- judging: stage 2, one peer of the author's country answers it as an MCQ -------------------
    judgment_keys = {
        **{str(i + 1): letter for i, letter in enumerate(LETTERS)},
        **{letter.lower(): letter for letter in LETTERS},
    }

    def judging_rule(self, settings: dict[str, Any]) -> JudgingRule:
        return JudgingRule(
            kind="answer",
            per_round=(1,),
            share=1.0,
            activity=pgettext_lazy("judging", "Peer verification"),
            judges=pgettext_lazy("judging", "peers"),
            verb=pgettext_lazy("judging", "answer"),
            verb_past=pgettext_lazy("judging", "answered"),
            noun=pgettext_lazy("judging", "answer"),
            saved=pgettext_lazy("judging", "Answer saved. Here is the next item."),
        )

    def judge_view(self, payload: dict[str, Any], *, unit_data: dict[str, Any] | None = None) -> dict[str, Any]:
        return completion_judging.judge_view(payload, item_id=0)

    def judge_item_for_judge(
        self,
        *,
        judge_id: int,
        seed: int,
        item_id: int,
        category: str,
        payload: dict[str, Any],
        unit_data: dict[str, Any],
        is_own: bool,
    ) -> JudgeItem:
        # Never the author's answer: the premise and the completions in the item's shuffled order.
        return JudgeItem(
            item_id=item_id,
            category=category,
            view=completion_judging.judge_view(payload, item_id=item_id, seed=seed),
            is_own=is_own,
        )

    def judge_item(
        self, *, item_id: int, category: str, payload: dict[str, Any], unit_data: dict[str, Any], is_own: bool
    ) -> JudgeItem:
        return self.judge_item_for_judge(
            judge_id=0, seed=0, item_id=item_id, category=category, payload=payload, unit_data=unit_data, is_own=is_own
        )

    def complete_judgment(
        self,
        judgment: JudgmentInput,
        *,
        judge_id: int,
        judge_group: str,
        seed: int,
        item_id: int,
        payload: dict[str, Any],
    ) -> JudgmentInput:
        return completion_judging.complete_judgment(judgment, item_id=item_id, seed=seed)

    own_judgment = staticmethod(completion_judging.own_judgment)

    def judgment_form_class(self) -> type:
        return completion_judging.PeerAnswerForm

    normalize_judgment = staticmethod(completion_judging.normalize_judgment)

    # --- gold --------------------------------------------------------------------------------------
    gold_policy = completion_gold.POLICY

    gold_decide = staticmethod(completion_gold.gold_decide)
    gold_memo_key = staticmethod(completion_gold.gold_memo_key)

    # --- agreement ---------------------------------------------------------------------------------
    agreement_level = "nominal"
    agreement_key = "answer"
    agreement_domain = LETTERS

    def categorical_item(
        self, *, item_id: int, author_id: int | None, case: GoldCase, outcome: GoldOutcome
    ) -> CategoricalItem | None:
        """The author's correct completion and the peers' answers: the rule keeps the item only when a
        peer confirms the author's answer, so both are votes."""
        votes = []
        author_answer = case.payload.get("answer")
        if author_id is not None and author_answer in LETTERS:
            votes.append(CategoricalJudgment(item_id, author_id, author_answer))
        for j in case.judgments:
            answer = (j.value or {}).get("answer") if isinstance(j.value, dict) else None
            if answer in LETTERS:
                votes.append(CategoricalJudgment(item_id, j.user_id, answer))
        rule_label = author_answer if outcome.outcome == "gold" and author_answer in LETTERS else None
        return CategoricalItem(tuple(votes), rule_label)

    def agreement_value(self, value: dict[str, Any]) -> Any:
        return value.get("answer") or None

    # --- reports -----------------------------------------------------------------------------------
    report_template = "annotation/task_types/sentence_completion/report.html"
    report_reads_unapproved = True  # "rejected at stage 1" needs the items QC turned down

    report_sections = staticmethod(completion_report.report_sections)

    # --- export ------------------------------------------------------------------------------------
    export_fields = completion_export.FIELDS
    datacard_task_categories = ("multiple-choice", "text-generation")

    export_row = staticmethod(completion_export.export_row)

    def export_split(self, record: Any) -> str:
        return completion_export.SPLIT

    parquet_schema = staticmethod(completion_export.parquet_schema)
    export_stats = staticmethod(completion_export.CompletionExportStats)
    datacard_text = staticmethod(completion_export.datacard_text)

    # --- benchmark ---------------------------------------------------------------------------------
    def benchmark(self) -> BenchmarkSpec:
        from annotation.task_types.sentence_completion.benchmark import SPEC

        return SPEC

    def benchmark_item(self, record: ExportRecord, *, gold_key: str) -> BenchmarkItem | None:
        from annotation.task_types.sentence_completion.benchmark import benchmark_item

        return benchmark_item(record, gold_key=gold_key)

    # --- demo and contract test --------------------------------------------------------------------
    demo = staticmethod(completion_demo.demo_project)

    def contract_examples(self) -> Any:
        from annotation.task_types.sentence_completion.examples import contract_examples

        return contract_examples()
