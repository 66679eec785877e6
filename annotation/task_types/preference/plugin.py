"""The preference task type (IndoPref, Wiyono et al. 2025): a prompt in a category (optional input text),
responses from several models, ratings by two rater groups, preference pairs and judge runs."""

from __future__ import annotations

from typing import Any

from django.conf import settings as django_settings
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from annotation.task_types.base import (
    JudgingRule,
    JudgmentInput,
    PayloadCheck,
    ProjectPage,
    RankedModels,
    TaskType,
    register,
)
from annotation.task_types.preference import demo as preference_demo
from annotation.task_types.preference import examples as preference_examples
from annotation.task_types.preference import export as preference_export
from annotation.task_types.preference import judging, payload
from annotation.task_types.preference import ranking as preference_ranking
from annotation.task_types.preference import reports as preference_reports
from annotation.task_types.preference.forms import PromptAuthorForm, RatingForm
from annotation.task_types.preference.settings import SETTINGS

PREFERENCE_ERROR_TYPES = [
    ("unclear_prompt", _("Unclear prompt"), _("The request can't be understood or answered as written.")),
    ("wrong_category", _("Wrong category"), _("The prompt does not belong to its category.")),
    ("missing_input", _("Missing input"), _("The prompt refers to a text (article, code) that is not given.")),
    ("not_native", _("Not natural Indonesian"), _("Translated or unnatural wording; prompts are written natively.")),
]


@register
class PreferenceTaskType(TaskType):
    name = "preference"
    label = _("Preference (prompts, model responses, rubric ratings by two groups)")
    author_template = "annotation/task_types/preference/author_form.html"
    display_template = "annotation/task_types/preference/item_display.html"
    judge_template = "annotation/task_types/preference/rating_form.html"
    judge_page_template = "annotation/task_types/preference/rating_page.html"
    unit_word = pgettext_lazy("unit", "prompt slot")
    unit_words = pgettext_lazy("unit", "prompt slots")
    project_pages = (
        ProjectPage("preference_raters", pgettext_lazy("page", "Rater groups")),
        ProjectPage("preference_runs", pgettext_lazy("page", "Responses and judge runs")),
        ProjectPage("preference_pairs_download", pgettext_lazy("page", "Preference pairs"), ("admin", "reviewer")),
    )
    project_panels_template = "annotation/task_types/preference/project_panels.html"
    default_error_types = PREFERENCE_ERROR_TYPES
    settings_spec = SETTINGS
    authors_per_unit_default = 1
    judgment_keys: dict[str, str] = {}  # the rating page has its own keys (static/js/task_types/preference/)
    gold_policy = judging.POLICY
    agreement_level = "ordinal"

    # --- payload -----------------------------------------------------------------------------------
    normalize_payload = staticmethod(payload.normalize)

    def check_payload(self, payload_: dict[str, Any], *, concept: str | None) -> PayloadCheck:
        return payload.check(payload_)

    def form_class(self) -> type:
        return PromptAuthorForm

    def form_initial(self, payload_: dict[str, Any]) -> dict[str, Any]:
        return {"prompt": payload_.get("prompt", ""), "input": payload_.get("input", "")}

    def payload_from_form(self, cleaned_data: dict[str, Any]) -> dict[str, Any]:
        return payload.normalize({"prompt": cleaned_data.get("prompt", ""), "input": cleaned_data.get("input", "")})

    diff = staticmethod(payload.diff)
    summary = staticmethod(payload.summary)

    # --- judging -----------------------------------------------------------------------------------
    def judging_rule(self, settings: dict[str, Any]) -> JudgingRule:
        per_group = settings.get("raters_per_group", 1)
        return JudgingRule(
            kind=judging.KIND,
            per_round=(per_group * len(judging.GROUPS),),
            groups=judging.GROUPS,
            activity=pgettext_lazy("judging", "Rating"),
            judges=pgettext_lazy("judging", "raters"),
            verb=pgettext_lazy("judging", "rate"),
            verb_past=pgettext_lazy("judging", "rated"),
            noun=pgettext_lazy("judging", "ratings"),
        )

    def judge_view(self, payload_: dict[str, Any], *, unit_data: dict[str, Any] | None = None) -> dict[str, Any]:
        """Without a rater: the responses shuffled, numbered, no model (the API's generic shape)."""
        view = judging.judge_item(
            secret=django_settings.SECRET_KEY,
            judge_id=0,
            seed=0,
            item_id=0,
            category="",
            payload=payload_,
            is_own=False,
        ).view
        return view

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
    ) -> Any:
        return judging.judge_item(
            secret=django_settings.SECRET_KEY,
            judge_id=judge_id,
            seed=seed,
            item_id=item_id,
            category=category,
            payload=payload,
            is_own=is_own,
        )

    def judgment_form_class(self) -> type:
        return RatingForm

    normalize_judgment = staticmethod(judging.normalize_judgment)

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
            judge_group=judge_group,
            seed=seed,
            item_id=item_id,
            payload=payload,
        )

    def own_judgment_for_judge(
        self, judgment: JudgmentInput | None, *, judge_id: int, seed: int, item_id: int, payload: dict[str, Any]
    ) -> JudgmentInput | None:
        """By the positions this rater sees; never the stored response ids or order."""
        return judging.own_judgment(
            judgment, secret=django_settings.SECRET_KEY, judge_id=judge_id, seed=seed, item_id=item_id, payload=payload
        )

    def payload_for_annotator(
        self, payload_: dict[str, Any], *, viewer_id: int, item_id: int, seed: int
    ) -> dict[str, Any]:
        """A writer who may also rate sees the responses anonymously, in their own rating order."""
        return judging.anonymous_payload(
            payload_, secret=django_settings.SECRET_KEY, seed=seed, item_id=item_id, viewer_id=viewer_id
        )

    # --- gold and agreement ------------------------------------------------------------------------
    gold_decide = staticmethod(judging.gold_decide)
    gold_memo_key = staticmethod(judging.gold_memo_key)

    def agreement_value(self, value: dict[str, Any]) -> Any:
        """The best pick (a response id): the nominal figure the core can compute; the report has the rest."""
        return (value or {}).get("best")

    # A check of a prompt expects the best pick: one of its response ids.
    known_answer_choices = staticmethod(payload.best_choices)

    # --- reports and export ------------------------------------------------------------------------
    report_template = "annotation/task_types/preference/report.html"
    export_fields = preference_export.EXPORT_FIELDS
    datacard_task_categories = ("text-generation", "text-classification")

    report_sections = staticmethod(preference_reports.report_sections)

    def model_ranking(self, rows: Any) -> RankedModels:
        pairs, _ = preference_reports.all_pairs(preference_reports.prompts_from_rows(rows), rows.settings)
        ranking = preference_ranking.model_ranking(pairs)
        compared = sum(1 for p in pairs if p["chosen_model"] != p["rejected_model"])
        return RankedModels(ranking, compared, preference_ranking.RESAMPLES)

    export_row = staticmethod(preference_export.export_row)
    export_split = staticmethod(preference_export.export_split)
    parquet_schema = staticmethod(preference_export.parquet_schema)
    datacard_text = staticmethod(preference_export.datacard_text)

    # --- demo and contract -------------------------------------------------------------------------
    demo = staticmethod(preference_demo.demo_project)
    contract_examples = staticmethod(preference_examples.contract_examples)
