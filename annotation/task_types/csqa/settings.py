"""The csqa project settings (Project.settings): how many answer each item, and when it is excluded."""

from django.utils.translation import gettext_lazy

from annotation import adaptive
from annotation.task_types.base import IntSetting

SETTINGS = {
    # m: answerers per item besides its author (Putri et al. 2024 used 5).
    "answerers_per_item": IntSetting(
        default=5, min_value=1, max_value=100, label=gettext_lazy("Answerers per item (m)")
    ),
    # An item whose question more than this many answerers flag ambiguous is excluded from the gold set.
    "ambiguity_threshold": IntSetting(
        label=gettext_lazy("Ambiguity threshold"),
        default=3,
        min_value=0,
        max_value=100,
        help=gettext_lazy("An item flagged ambiguous by more answerers than this is excluded."),
    ),
    # Fixed overlap (the paper's) or adaptive judging: see annotation.adaptive.
    **adaptive.SETTINGS,
}
