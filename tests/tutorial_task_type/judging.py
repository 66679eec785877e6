"""Who judges, what a judge sees and gives, and the gold rule.

Two judges label every approved item (one round, never its author: the core refuses the author). A
judge sees the sentence only, never the author's label. Gold is the judges' majority: both chose the
same label -> gold with that label; they differ (a tie, one vote each) -> no_gold, and the item waits
for a reviewer, who may set its label on the item page (the core's gold override). The author's label
never votes.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from django.utils.translation import gettext, pgettext_lazy

from annotation import limits
from annotation.errors import InvalidInput
from annotation.task_types.base import GoldCase, GoldOutcome, JudgingRule, JudgmentInput
from tests.tutorial_task_type.payload import LABELS

JUDGES = 2
POLICY = "sentiment_majority_v1"
# Keys of the judging page: 1 2 3, or the labels' first letters.
KEYS = {"1": LABELS[0], "2": LABELS[1], "3": LABELS[2], **{label[0]: label for label in LABELS}}

RULE = JudgingRule(
    kind="validate",
    per_round=(JUDGES,),
    activity=pgettext_lazy("judging", "Labelling"),
    judges=pgettext_lazy("judging", "labellers"),
    verb=pgettext_lazy("judging", "label"),
    verb_past=pgettext_lazy("judging", "labelled"),
    noun=pgettext_lazy("judging", "label"),
)


def judge_view(payload: dict[str, Any], *, unit_data: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"text": payload.get("text", "")}


def normalize_judgment(data: dict[str, Any]) -> JudgmentInput:
    """{"label", "comment"} from the form or the API; refuse an unknown label."""
    if not isinstance(data, dict):
        raise InvalidInput(
            gettext("A judgment must be an object."), field_errors={"label": [gettext("Give an object.")]}
        )
    label, comment = data.get("label"), data.get("comment") or ""
    errors = limits.text_errors([("comment", comment, limits.COMMENT)])
    if label not in LABELS:
        errors["label"] = [gettext("Choose positive, negative or neutral.")]
    if errors:
        raise InvalidInput(gettext("This label can't be saved."), field_errors=errors)
    return JudgmentInput(value={"label": label}, flags={}, comment=comment)


def label_of(value: dict[str, Any]) -> str | None:
    """The value agreement is computed on: the label, None when there is none."""
    label = (value or {}).get("label")
    return label if label in LABELS else None


def gold_decide(case: GoldCase) -> GoldOutcome:
    labels = [j.value.get("label") for j in case.judgments if j.value.get("label") in LABELS]
    details: dict[str, Any] = {"label": None, "labels": labels}
    if len(labels) < JUDGES:
        return GoldOutcome("pending", f"{len(labels)} of {JUDGES} labels", details)
    (top, votes), *rest = Counter(labels).most_common()
    if rest and rest[0][1] == votes:
        return GoldOutcome("no_gold", "tie: the judges disagree, a reviewer decides", details)
    return GoldOutcome("gold", f"majority: {votes} of {len(labels)} chose {top}", {**details, "label": top})


def gold_memo_key(case: GoldCase) -> tuple:
    """Everything gold_decide reads: the labels in order (never who gave them)."""
    return tuple(j.value.get("label") for j in case.judgments)
