from typing import Any

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from annotation import adaptive
from annotation.task_types.base import (
    BenchmarkSpec,
    CategoricalItem,
    CategoricalJudgment,
    DemoProject,
    GoldCase,
    GoldOutcome,
    JudgingRule,
    ProjectPage,
    TaskType,
    register,
)
from annotation.task_types.csqa import benchmark as csqa_benchmark
from annotation.task_types.csqa import export as csqa_export
from annotation.task_types.csqa import gold as csqa_gold
from annotation.task_types.csqa import judging as csqa_judging
from annotation.task_types.csqa import payload as csqa_payload
from annotation.task_types.csqa import report as csqa_report
from annotation.task_types.csqa import report_columns as csqa_report_columns
from annotation.task_types.csqa.answers import normalize_answer
from annotation.task_types.csqa.forms import CsqaAuthorForm
from annotation.task_types.csqa.payload import LABELS
from annotation.task_types.csqa.settings import SETTINGS

# The error types Putri et al. 2024 report from their QC of human-written questions.
CSQA_ERROR_TYPES = [
    ("typo", _("Typo / mechanics"), _("Spelling, punctuation, capitalisation.")),
    ("fluency", _("Sentence fluency"), _("Unnatural or awkward wording.")),
    ("structure", _("Sentence structure"), _("Ungrammatical or confusing structure.")),
    ("too_general", _("Context too general"), _("E.g. “all over the world”: not specific to the culture.")),
    ("subjective", _("Subjective"), _("Superlatives or opinions (“the most delicious”).")),
    ("logic_not_commonsense", _("Logic/causal, not commonsense"), _("Needs reasoning rather than shared knowledge.")),
    ("equal_options", _("Options of equal value"), _("Several options are equally good.")),
    (
        "answer_distractor_equivalent",
        _("Answer and distractor equivalent"),
        _("A distractor means the same as the answer."),
    ),
    ("no_valid_answer", _("No valid answer"), _("None of the options is correct.")),
    ("wrong_language", _("Wrong language"), _("Not written in the project's language.")),
    ("translation_error", _("Translation error"), _("A translated part is wrong.")),
]


@register
class CsqaTaskType(TaskType):
    name = "csqa"
    label = _("Commonsense QA (question + 5 options)")
    author_template = "annotation/task_types/csqa/author_form.html"
    display_template = "annotation/task_types/csqa/item_display.html"
    judge_template = "annotation/task_types/csqa/answer_form.html"
    judge_page_template = "annotation/task_types/csqa/answer_page.html"
    project_pages = (
        ProjectPage("llm_generate", pgettext_lazy("page", "Generate drafts")),
        ProjectPage("llm_adapt", pgettext_lazy("page", "Adapt CommonsenseQA")),
        ProjectPage("human_vs_llm", pgettext_lazy("page", "Human vs LLM"), ("admin", "reviewer")),
    )
    default_error_types = CSQA_ERROR_TYPES
    settings_spec = SETTINGS
    labels = LABELS

    normalize_payload = staticmethod(csqa_payload.normalize)
    check_payload = staticmethod(csqa_payload.check)

    def form_class(self) -> type:
        return CsqaAuthorForm

    def form_initial(self, payload: dict[str, Any]) -> dict[str, Any]:
        initial: dict[str, Any] = {"question": payload.get("question", ""), "answer": payload.get("answer", "")}
        for label, text in zip(LABELS, payload.get("choices", []), strict=False):
            initial[f"choice_{label.lower()}"] = text
        return initial

    def payload_from_form(self, cleaned_data: dict[str, Any]) -> dict[str, Any]:
        return self.normalize_payload(
            {
                "question": cleaned_data.get("question", ""),
                "choices": [cleaned_data.get(f"choice_{label.lower()}", "") for label in LABELS],
                "answer": cleaned_data.get("answer", ""),
            }
        )

    diff = staticmethod(csqa_payload.diff)

    def summary(self, payload: dict[str, Any]) -> str:
        return payload.get("question", "")

    normalize_judgment = staticmethod(normalize_answer)

    # --- judging: m answerers per item, one round; keys 1-5 and A-E pick an option ---------------
    judging_api_shape = "multiple_choice"  # the API's question/choices and answer A-E shapes, as before
    judgment_keys = {
        **{str(i + 1): label for i, label in enumerate(LABELS)},
        **{label.lower(): label for label in LABELS},
    }

    def judging_rule(self, settings: dict[str, Any]) -> JudgingRule:
        rule = JudgingRule(
            kind="answer",
            per_round=(settings["answerers_per_item"],),
            share=1.0,
            activity=pgettext_lazy("judging", "Cross-answering"),
            judges=pgettext_lazy("judging", "answerers"),
            verb=pgettext_lazy("judging", "answer"),
            verb_past=pgettext_lazy("judging", "answered"),
            noun=pgettext_lazy("judging", "answer"),
            saved=pgettext_lazy("judging", "Answer saved. Here is the next question."),
        )
        return adaptive.adaptive_rule(rule, settings)

    def judge_view(self, payload: dict[str, Any], *, unit_data: dict[str, Any] | None = None) -> dict[str, Any]:
        # Never the author's answer: the judge sees the question and the options only.
        return csqa_judging.judge_view(payload)

    def judge_item(
        self, *, item_id: int, category: str, payload: dict[str, Any], unit_data: dict[str, Any], is_own: bool
    ) -> csqa_judging.AnswerQuestion:
        view = csqa_judging.judge_view(payload)
        return csqa_judging.AnswerQuestion(
            item_id=item_id, category=category, question=view["question"], choices=view["choices"], is_own=is_own
        )

    own_judgment = staticmethod(csqa_judging.own_answer)

    # --- gold --------------------------------------------------------------------------------------
    gold_policy = csqa_gold.POLICY

    gold_payload_keys = ("answer",)

    gold_decide = staticmethod(csqa_gold.gold_decide)
    gold_memo_key = staticmethod(csqa_gold.gold_memo_key)

    # --- agreement ---------------------------------------------------------------------------------
    agreement_level = "nominal"
    agreement_key = "answer"
    agreement_domain = LABELS

    def categorical_item(
        self, *, item_id: int, author_id: int | None, case: GoldCase, outcome: GoldOutcome
    ) -> CategoricalItem | None:
        """The answerers' letters (the author never counts, as in the rule); the rule's label is the
        majority once the item is gold."""
        judgments = tuple(
            CategoricalJudgment(item_id, j.user_id, answer)
            for j in case.judgments
            if (answer := (j.value or {}).get("answer")) in LABELS
        )
        rule_label = outcome.details.get("majority") if outcome.outcome == "gold" else None
        return CategoricalItem(judgments, rule_label)

    def agreement_value(self, value: dict[str, Any]) -> Any:
        return value.get("answer") or None

    # --- reports -----------------------------------------------------------------------------------
    report_template = "annotation/task_types/csqa/report.html"

    report_sections = staticmethod(csqa_report.report_sections)

    report_columns = True

    report_sections_from_columns = staticmethod(csqa_report_columns.report_sections_from_columns)

    # --- export ------------------------------------------------------------------------------------
    export_fields = csqa_export.FIELDS
    datacard_task_categories = ("question-answering", "multiple-choice")
    export_reads_gold = False  # the row recomputes the majority from the answers; the decision is not read

    export_row = staticmethod(csqa_export.csqa_row)
    export_jsonl = staticmethod(csqa_export.csqa_jsonl)
    export_split = staticmethod(csqa_export.export_split)
    parquet_schema = staticmethod(csqa_export.parquet_schema)
    export_stats = staticmethod(csqa_export.CsqaExportStats)
    datacard_text = staticmethod(csqa_export.datacard_text)

    # --- importers ---------------------------------------------------------------------------------
    def importers(self) -> dict[str, Any]:
        from annotation.task_types.csqa.importers import IMPORTERS

        return IMPORTERS

    # --- benchmark: letters A-E, the paper's three prompts -----------------------------------------
    def benchmark(self) -> BenchmarkSpec:
        return csqa_benchmark.SPEC

    benchmark_item = staticmethod(csqa_benchmark.benchmark_item)

    # --- demo and contract test --------------------------------------------------------------------
    def demo(self) -> DemoProject:
        from annotation.task_types.csqa.demo import demo_project

        return demo_project()

    def contract_examples(self) -> Any:
        from annotation.task_types.csqa.examples import contract_examples

        return contract_examples()

    def judgment_form_class(self) -> type:
        return csqa_judging.CsqaAnswerForm
