"""The cultural_prompt project settings (Project.settings)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy

from annotation import adaptive
from annotation.task_types.base import BoolSetting, IntSetting

SETTINGS = {
    # validators per prompt (the paper: three natives who did not write the data)
    "validators_per_item": IntSetting(default=3, min_value=1, max_value=9, label=gettext_lazy("Validators per prompt")),
    # of the approved prompts, the share (in percent) sent to validation, sampled from the project's seed
    "validation_percent": IntSetting(label=gettext_lazy("Validation percent"), default=100, min_value=0, max_value=100),
    # QC review (the paper's focus groups) of each written prompt; off: a submitted prompt is approved at once
    "qc_review": BoolSetting(label=gettext_lazy("QC review"), default=True),
    # Fixed overlap (the paper's three validators) or adaptive judging: see annotation.adaptive.
    **adaptive.SETTINGS,
}
