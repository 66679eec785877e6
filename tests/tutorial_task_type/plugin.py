"""The sentiment task type: a plugin declares; the pure functions beside it do the work.

Each hook the core calls is either a class attribute (words, templates, the gold policy's name) or a
pure function of payload.py, judging.py, report.py or export.py given as a staticmethod. Importers
need no line here: the core reads IMPORTERS from importers.py beside this module.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.utils.translation import gettext_lazy, pgettext_lazy

from annotation.task_types.base import JudgingRule, TaskType, register
from tests.tutorial_task_type import examples, export, forms, judging, payload, report


@register
class SentimentTaskType(TaskType):
    # --- who it is, and where its templates are --------------------------------------------------
    name = "sentiment"
    label = gettext_lazy("Sentiment (one sentence, one label)")
    template_dir = Path(__file__).resolve().parent / "templates"
    author_template = "tutorial_task_type/author_form.html"
    display_template = "tutorial_task_type/item_display.html"
    judge_template = "tutorial_task_type/judge_form.html"
    report_template = "tutorial_task_type/report.html"
    unit_word = pgettext_lazy("unit", "topic")
    unit_words = pgettext_lazy("unit", "topics")

    # --- payload: what an item is ----------------------------------------------------------------
    normalize_payload = staticmethod(payload.normalize)
    check_payload = staticmethod(payload.check)
    diff = staticmethod(payload.diff)
    summary = staticmethod(payload.summary)
    form_initial = staticmethod(forms.form_initial)
    payload_from_form = staticmethod(forms.payload_from_form)

    def form_class(self) -> type:
        return forms.SentimentAuthorForm

    # --- judging: two judges, the sentence only ----------------------------------------------------
    judgment_keys = judging.KEYS
    judge_view = staticmethod(judging.judge_view)
    normalize_judgment = staticmethod(judging.normalize_judgment)

    def judging_rule(self, settings: dict[str, Any]) -> JudgingRule:
        return judging.RULE

    def judgment_form_class(self) -> type:
        return forms.SentimentJudgeForm

    # --- gold and agreement ----------------------------------------------------------------------
    gold_policy = judging.POLICY
    gold_decide = staticmethod(judging.gold_decide)
    gold_memo_key = staticmethod(judging.gold_memo_key)
    agreement_key = "label"
    agreement_domain = payload.LABELS
    agreement_value = staticmethod(judging.label_of)
    value_labels = payload.LABEL_NAMES

    # --- report and export -----------------------------------------------------------------------
    report_sections = staticmethod(report.report_sections)
    export_fields = export.FIELDS
    export_row = staticmethod(export.export_row)
    export_split = staticmethod(export.export_split)
    parquet_schema = staticmethod(export.parquet_schema)
    datacard_text = staticmethod(export.datacard_text)
    datacard_task_categories = ("text-classification",)

    # --- the contract test's tiny examples -------------------------------------------------------
    contract_examples = staticmethod(examples.contract_examples)
