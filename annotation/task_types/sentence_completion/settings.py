"""The completion project settings (Project.settings)."""

from annotation.task_types.base import BoolSetting, ChoiceSetting

SETTINGS = {
    # ArabCulture is written in Modern Standard Arabic: premise and completions must be in Arabic script.
    "script": ChoiceSetting(
        default="arabic",
        choices=("arabic", "any"),
        help="The script premise and completions are written in (arabic: most letters Arabic).",
    ),
    # Stage 1 and stage 2 stay inside the author's country (the paper's national review and peer check).
    "same_country": BoolSetting(
        default=True,
        label="Reviewers and peers of the author's country only",
        help="Stage 1 review by a reviewer of the author's country; stage 2 by an annotator of the same country.",
    ),
}
