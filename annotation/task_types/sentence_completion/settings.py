"""The completion project settings (Project.settings)."""

from django.utils.translation import gettext_lazy

from annotation.task_types.base import BoolSetting, ChoiceSetting

SETTINGS = {
    # ArabCulture is written in Modern Standard Arabic: premise and completions must be in Arabic script.
    "script": ChoiceSetting(
        label=gettext_lazy("Script"),
        default="arabic",
        choices=("arabic", "any"),
        choice_labels=(gettext_lazy("Arabic"), gettext_lazy("Any")),
        help=gettext_lazy("The script premise and completions are written in (arabic: most letters Arabic)."),
    ),
    # Stage 1 and stage 2 stay inside the author's country (the paper's national review and peer check).
    "same_country": BoolSetting(
        default=True,
        label=gettext_lazy("Reviewers and peers of the author's country only"),
        help=gettext_lazy(
            "Stage 1 review by a reviewer of the author's country; stage 2 by an annotator of the same country."
        ),
    ),
}
