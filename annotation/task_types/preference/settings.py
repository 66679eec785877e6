"""The preference task type's project settings."""

from django.utils.translation import gettext_lazy

from annotation.task_types.base import ChoiceSetting, IntSetting

SETTINGS = {
    "raters_per_group": IntSetting(
        1,
        1,
        10,
        label=gettext_lazy("Raters per group"),
        help=gettext_lazy("Raters of each group (A and B) who rate every prompt."),
    ),
    "min_margin": IntSetting(
        1,
        1,
        40,
        label=gettext_lazy("Minimum margin"),
        help=gettext_lazy(
            "A pair needs the chosen response's combined score (relevance + fluency over both groups) higher "
            "by at least this much; smaller differences are ties."
        ),
    ),
    "tie_break": ChoiceSetting(
        "none",
        ("none", "best_picks"),
        label=gettext_lazy("Ties"),
        choice_labels=(gettext_lazy("No pair"), gettext_lazy("The response picked best more often wins")),
        help=gettext_lazy("none: a tie gives no pair. best_picks: the response more raters picked as the best wins."),
    ),
    "rubric_language": ChoiceSetting(
        "id",
        ("id", "en"),
        label=gettext_lazy("Rubric language"),
        choice_labels=(gettext_lazy("Indonesian"), gettext_lazy("English")),
        help=gettext_lazy(
            "The rubric's language on the rating page; the other language is folded under it. The scales' "
            "anchor words follow each rater's interface language."
        ),
    ),
}
