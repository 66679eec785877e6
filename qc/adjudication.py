"""What the item page shows reviewers and admins to adjudicate an item: every judgment, the majority,
the gold decision with its reason, and the overrides (qc.overrides). Any task type: answers and flags
are shown as their keys and values, the majority is the most frequent answer.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.utils.translation import gettext, gettext_lazy

from annotation.models import Item, Judgment, Membership
from qc.models import GoldDecision, GoldOverride
from qc.overrides import OVERRIDABLE


@dataclass(frozen=True)
class JudgmentLine:
    judge: str
    kind: str
    round: int
    answer: str
    flags: tuple[str, ...]
    comment: str
    created_at: datetime


@dataclass(frozen=True)
class Adjudication:
    judgments: tuple[JudgmentLine, ...]
    majority: str  # "" when there is no judgment or the top answers tie
    majority_count: int
    decision: GoldDecision | None
    details: tuple[tuple[str, str], ...]
    overrides: tuple[GoldOverride, ...]
    outcomes: tuple[tuple[str, str], ...]  # what an admin may set: (value, label)


# The judgment keys the task types write, in the reader's language; a key not listed is shown as stored.
KEY_NAMES = {
    "answer": gettext_lazy("answer"),
    "best": gettext_lazy("best"),
    "choice": gettext_lazy("choice"),
    "comment": gettext_lazy("comment"),
    "label": gettext_lazy("label"),
    "option_ambiguous": gettext_lazy("option ambiguous"),
    "question_ambiguous": gettext_lazy("question ambiguous"),
    "ratings": gettext_lazy("ratings"),
    "uncertain": gettext_lazy("uncertain"),
}


def _key(key: str) -> str:
    return str(KEY_NAMES.get(key, key))


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return gettext("yes") if value else gettext("no")
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_text(v) for v in value) + "]"
    if isinstance(value, dict):
        return json.dumps(value, ensure_ascii=False, sort_keys=True)
    return "" if value is None else str(value)


def answer_text(value: Any) -> str:
    """`{"answer": "C"}` -> "answer: C"; keys in sorted order, so equal answers read the same."""
    if isinstance(value, dict):
        return "; ".join(f"{_key(key)}: {_text(value[key])}" for key in sorted(value))
    return _text(value)


def flag_texts(flags: Any) -> tuple[str, ...]:
    """The flags that are raised: a true flag by its name, a flag with a value (a list, a note) as name: value.
    An all-false list (no option flagged) is not raised."""
    if not isinstance(flags, dict):
        return ()
    out = []
    for key in sorted(flags):
        value = flags[key]
        raised = any(value) if isinstance(value, (list, tuple)) else value not in (None, False, "", 0)
        if value is True:
            out.append(_key(key))
        elif raised:
            out.append(f"{_key(key)}: {_text(value)}")
    return tuple(out)


def item_adjudication(*, item: Item) -> Adjudication:
    """Three queries: the judgments (with their judges), the decision, the overrides (with their authors)."""
    judgments = tuple(
        JudgmentLine(
            judge=j.user.username,
            kind=j.kind,
            round=j.round,
            answer=answer_text(j.value),
            flags=flag_texts(j.flags),
            comment=j.comment,
            created_at=j.created_at,
        )
        for j in Judgment.objects.filter(item=item).select_related("user").order_by("created_at", "id")
    )
    majority, count = "", 0
    counts = Counter(j.answer for j in judgments).most_common(2)
    if counts and (len(counts) == 1 or counts[0][1] > counts[1][1]):
        majority, count = counts[0]
    decision = GoldDecision.objects.filter(item=item).first()
    details = ()
    if decision is not None and isinstance(decision.details, dict):
        details = tuple((key, _text(decision.details[key])) for key in sorted(decision.details))
    overrides = tuple(GoldOverride.objects.filter(item=item).select_related("user").order_by("created_at", "id"))
    outcomes = tuple((value, label) for value, label in GoldDecision.Outcome.choices if value in OVERRIDABLE)
    return Adjudication(judgments, majority, count, decision, details, overrides, outcomes)


def item_adjudication_panel(*, item: Item, membership: Membership) -> dict[str, Any]:
    """The item page's adjudication for reviewers and admins (annotation.hooks): every judgment, the
    majority, the gold decision, the overrides; only admins may override."""
    return {"adjudication": item_adjudication(item=item), "can_override": membership.role == Membership.Role.ADMIN}
