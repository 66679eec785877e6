"""The nli project settings (Project.settings).

Lay and expert projects differ the way the paper's two groups did: experts tag each pair with the
inference phenomena, and all their pairs are validated (100%) where a lay project validates a share
(the paper: ~30%). A validation share left out follows the annotator type.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy

from annotation.task_types.base import BoolSetting, ChoiceSetting, IntSetting

LAY = "lay"
EXPERT = "expert"
ANNOTATOR_TYPES = (LAY, EXPERT)
VALIDATION_PERCENT_DEFAULT = {LAY: 30, EXPERT: 100}

SETTINGS = {
    "annotator_type": ChoiceSetting(
        label=gettext_lazy("Annotator type"),
        default=LAY,
        choices=ANNOTATOR_TYPES,
        choice_labels=(gettext_lazy("Lay"), gettext_lazy("Expert")),
    ),
    # of the approved pairs, the share (in percent) sent to validation, sampled from the project's seed
    "validation_percent": IntSetting(
        label=gettext_lazy("Validation percent"), default=VALIDATION_PERCENT_DEFAULT[LAY], min_value=0, max_value=100
    ),
    # the paper limits the snippets taken from one source document
    "premises_per_document": IntSetting(
        label=gettext_lazy("Premises per document"), default=5, min_value=1, max_value=1000
    ),
    # a paragraph premise is kept under this many words (the paper: 200, for the language models of 2021)
    "paragraph_word_limit": IntSetting(
        label=gettext_lazy("Paragraph word limit"), default=200, min_value=10, max_value=5000
    ),
    # QC review of each written hypothesis; off: a submitted hypothesis is approved at once
    "qc_review": BoolSetting(label=gettext_lazy("QC review"), default=True),
}


def fill_validation_default(data: dict[str, Any]) -> dict[str, Any]:
    """`data` with the validation share of its annotator type when the share is not given."""
    if "validation_percent" in data:
        return data
    kind = data.get("annotator_type", LAY)
    if kind not in VALIDATION_PERCENT_DEFAULT:
        return data  # settings_clean refuses the type itself
    return {**data, "validation_percent": VALIDATION_PERCENT_DEFAULT[kind]}


def is_expert(settings: dict[str, Any]) -> bool:
    return settings.get("annotator_type") == EXPERT
