"""The cultural_prompt task type (KALAHI, Montalan et al. 2024): a situated prompt (user, context, personal
situation, instruction) with 3-5 relevant and 3-5 irrelevant responses and one best; validators who did
not write it pick the best among best + irrelevant (MC1), shuffled for each of them."""

from __future__ import annotations

from typing import Any

from django.conf import settings as django_settings
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from annotation import adaptive
from annotation.task_types.base import (
    BenchmarkSpec,
    CategoricalItem,
    CategoricalJudgment,
    GoldCase,
    GoldOutcome,
    JudgingRule,
    JudgmentInput,
    PayloadCheck,
    ProjectPage,
    TaskType,
    register,
)
from annotation.task_types.cultural_prompt import benchmark as cp_benchmark
from annotation.task_types.cultural_prompt import demo as cp_demo
from annotation.task_types.cultural_prompt import examples as cp_examples
from annotation.task_types.cultural_prompt import export as cp_export
from annotation.task_types.cultural_prompt import judging, payload
from annotation.task_types.cultural_prompt import reports as cp_reports
from annotation.task_types.cultural_prompt.forms import CulturalPromptForm, Mc1Form, payload_data
from annotation.task_types.cultural_prompt.forms import form_initial as item_initial
from annotation.task_types.cultural_prompt.settings import SETTINGS
from annotation.task_types.cultural_prompt.unit_variants import KalahiUnitVariants

# The focus groups' improvements (the paper's section 3.1) as QC error types, with relevance itself.
ERROR_TYPES = [
    (
        "reword_culture",
        _("Reword for the culture"),
        _("Reword the prompt to be understandable and appropriate to natives."),
    ),
    (
        "split_merge",
        _("Split or merge"),
        _("Combine prompts, or split one into more specific situations and intentions."),
    ),
    ("rephrase_response", _("Rephrase a response"), _("Rephrase relevant or irrelevant responses.")),
    (
        "add_variant",
        _("Add a situation variant"),
        _("Add a personal-situation variant that changes which response is best."),
    ),
    (
        "relevance",
        _("Wrong relevance"),
        _("A response marked relevant is not helpful and harmless in the culture, or the reverse."),
    ),
    ("language", _("Language"), _("Spelling, grammar or an unnatural construction.")),
]


@register
class CulturalPromptTaskType(TaskType):
    name = "cultural_prompt"
    label = _("Cultural prompts (KALAHI: situated prompt, relevant/irrelevant responses, MC1 validation)")
    author_template = "annotation/task_types/cultural_prompt/author_form.html"
    display_template = "annotation/task_types/cultural_prompt/item_display.html"
    judge_template = "annotation/task_types/cultural_prompt/validation_form.html"
    unit_word = pgettext_lazy("unit", "topic")
    unit_words = pgettext_lazy("unit", "topics")
    project_pages = (
        ProjectPage("kalahi_variants", pgettext_lazy("page", "Variant requests")),
        ProjectPage("kalahi_scores", pgettext_lazy("page", "KALAHI scores"), ("admin", "reviewer")),
    )
    default_error_types = ERROR_TYPES
    settings_spec = SETTINGS
    authors_per_unit_default = 1
    judgment_keys = dict(judging.KEYS)

    def judgment_keys_for(self, question: Any) -> dict[str, str]:
        """1 to the number of responses this validator is shown (best + irrelevant, 2 to 9)."""
        count = len(getattr(question, "options", ()) or ())
        return {key: value for key, value in self.judgment_keys.items() if int(key) <= count}

    gold_policy = judging.POLICY
    agreement_level = "nominal"

    # --- settings ----------------------------------------------------------------------------------
    def review_required(self, settings: dict[str, Any]) -> bool:
        return bool(settings.get("qc_review", True))

    # --- payload -----------------------------------------------------------------------------------
    normalize_payload = staticmethod(payload.normalize)

    def check_payload(self, payload_: dict[str, Any], *, concept: str | None) -> PayloadCheck:
        return payload.check(payload_, unit=concept)

    def form_class(self) -> type:
        return CulturalPromptForm

    # A variant is written by choosing its base prompt among the unit's (same category and topic).
    unit_variants = KalahiUnitVariants()

    form_initial = staticmethod(item_initial)

    def payload_from_form(self, cleaned_data: dict[str, Any]) -> dict[str, Any]:
        return self.normalize_payload(payload_data(cleaned_data))

    diff = staticmethod(payload.diff)
    summary = staticmethod(payload.summary)

    # --- judging (MC1 by validators who did not write the prompt) ------------------------------------
    def judging_rule(self, settings: dict[str, Any]) -> JudgingRule:
        rule = JudgingRule(
            kind="validate",
            per_round=(settings["validators_per_item"],),
            share=settings["validation_percent"] / 100,
            activity=pgettext_lazy("judging", "Validation"),
            judges=pgettext_lazy("judging", "validators"),
            verb=pgettext_lazy("judging", "validate"),
            verb_past=pgettext_lazy("judging", "validated"),
            noun=pgettext_lazy("judging", "pick"),
            saved=pgettext_lazy("judging", "Pick saved. Here is the next prompt."),
        )
        return adaptive.adaptive_rule(rule, settings)

    def judge_view(self, payload_: dict[str, Any], *, unit_data: dict[str, Any] | None = None) -> dict[str, Any]:
        return judging.judge_view(payload_, seed=0)

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
    ) -> judging.Mc1Question:
        view = judging.judge_view(
            payload, seed=judging.shuffle_seed(seed, item_id, judge_id, secret=django_settings.SECRET_KEY)
        )
        return judging.Mc1Question(item_id=item_id, category=category, view=view, is_own=is_own)

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
        return judging.complete_judgment(
            judgment,
            secret=django_settings.SECRET_KEY,
            judge_id=judge_id,
            project_seed=seed,
            item_id=item_id,
            payload=payload,
        )

    def own_judgment(self, judgment: JudgmentInput | None) -> JudgmentInput | None:
        # The validator's own pick as the position they clicked: the option's name would say whether it
        # was the best (and let them change it knowing that).
        if judgment is None:
            return None
        return JudgmentInput(
            value={"position": (judgment.value or {}).get("position")}, flags={}, comment=judgment.comment
        )

    def judgment_form_class(self) -> type:
        return Mc1Form

    normalize_judgment = staticmethod(judging.normalize_judgment)

    # --- gold and agreement ------------------------------------------------------------------------
    gold_decide = staticmethod(judging.gold_decide)
    gold_memo_key = staticmethod(judging.gold_memo_key)

    def categorical_item(
        self, *, item_id: int, author_id: int | None, case: GoldCase, outcome: GoldOutcome
    ) -> CategoricalItem | None:
        """The validators' MC1 picks (option names, so "best" means the same in every item); the rule
        keeps the writers' best once validated."""
        judgments = tuple(
            CategoricalJudgment(item_id, j.user_id, choice)
            for j in case.judgments
            if (choice := (j.value or {}).get("choice"))
        )
        return CategoricalItem(judgments, judging.BEST if outcome.outcome == "gold" else None)

    def agreement_value(self, value: dict[str, Any]) -> Any:
        return (value or {}).get("choice") or None

    def agreement_domain_of(self, payload: dict[str, Any]) -> tuple[str, ...]:
        """The MC1 options a judge is shown: the best response and each irrelevant one."""
        return ("best", *(f"irrelevant_{n}" for n in range(1, len(payload.get("irrelevant") or []) + 1)))

    # --- reports and export ------------------------------------------------------------------------
    report_template = "annotation/task_types/cultural_prompt/report.html"
    export_fields = cp_export.EXPORT_FIELDS
    datacard_task_categories = ("multiple-choice", "text-generation")

    report_sections = staticmethod(cp_reports.report_sections)
    export_row = staticmethod(cp_export.export_row)
    export_split = staticmethod(cp_export.export_split)
    parquet_schema = staticmethod(cp_export.parquet_schema)
    datacard_text = staticmethod(cp_export.datacard_text)
    export_stats = staticmethod(cp_export.Stats)

    # --- benchmark ---------------------------------------------------------------------------------
    def benchmark(self) -> BenchmarkSpec:
        return cp_benchmark.SPEC

    benchmark_item = staticmethod(cp_benchmark.benchmark_item)

    # --- demo and contract -------------------------------------------------------------------------
    demo = staticmethod(cp_demo.demo_project)
    contract_examples = staticmethod(cp_examples.contract_examples)
