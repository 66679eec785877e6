"""Validation (the paper's Appendix E): what a validator sees, their judgment, and the gold decision.

Judgment: value {"label": "entailment" | "neutral" | "contradiction"}, flags {"error": bool,
"correction": str}. A validator who finds an error may propose a corrected hypothesis; the correction
is stored on the judgment and goes to the author's QC reviewer, it never replaces the text.

The gold decision replays the rounds (rounds.decide) on the author's label and the validators' labels
by round; `next_round` asks the core's judging engine for the one more validator the pair needs.
"""

from __future__ import annotations

import contextlib
from collections import defaultdict
from typing import Any

from django.utils.translation import gettext

from annotation import limits
from annotation.errors import InvalidInput
from annotation.task_types.base import GoldCase, GoldOutcome, JudgmentInput
from annotation.task_types.nli import rounds
from annotation.task_types.nli.labels import CODES, LABELS, UnknownLabel, normalize_label
from annotation.task_types.nli.payload import HYPOTHESIS

POLICY = "nli_rounds_v1"
KEYS = {code: label for label, code in CODES.items()}  # e/n/c on the judging page
_TRUE = {"on", "true", "1", "yes"}
_FALSE = {"", "off", "false", "0", "no"}


def judge_view(payload: dict[str, Any], unit_data: dict[str, Any] | None = None) -> dict[str, Any]:
    """Premise and hypothesis only: never the author's label or tags."""
    return {"premise": (unit_data or {}).get("text", ""), "hypothesis": payload.get("hypothesis", "")}


def _flag(value: Any) -> bool | None:
    if isinstance(value, bool):
        return value
    if value is None:
        return False
    if isinstance(value, str) and value.strip().casefold() in _TRUE | _FALSE:
        return value.strip().casefold() in _TRUE
    return None


def normalize_judgment(data: dict[str, Any]) -> JudgmentInput:
    """{"label", "error", "correction", "comment"} flat, or nested {"value", "flags", "comment"}."""
    if not isinstance(data, dict):
        raise InvalidInput(
            gettext("A judgment must be an object."), field_errors={"label": [gettext("Give an object.")]}
        )
    value = data.get("value") if isinstance(data.get("value"), dict) else data
    flags_in = data.get("flags") if isinstance(data.get("flags"), dict) else data
    errors: dict[str, list[str]] = {}
    label = None
    with contextlib.suppress(UnknownLabel):
        label = normalize_label(value.get("label"))
    if label is None:
        errors["label"] = [gettext("Choose %(join)s (keys e, n, c).") % {"join": ", ".join(LABELS)}]
    error = _flag(flags_in.get("error"))
    if error is None:
        errors["error"] = [gettext("Must be true or false.")]
    correction = flags_in.get("correction") or ""
    comment = data.get("comment") or ""
    for name, text, max_length in (("correction", correction, HYPOTHESIS), ("comment", comment, limits.COMMENT)):
        problem = limits.NOT_TEXT if not isinstance(text, str) else limits.text_problem(text, max_length=max_length)
        if problem:
            errors[name] = [problem]
    if not errors.get("correction") and isinstance(correction, str) and correction.strip() and not error:
        error = True  # a proposed correction says there is an error
    if errors:
        raise InvalidInput(gettext("The label can't be saved yet."), field_errors=errors)
    return JudgmentInput(
        value={"label": label},
        flags={"error": bool(error), "correction": correction.strip()},
        comment=comment.strip(),
    )


def labels_by_round(case: GoldCase) -> dict[int, list[str]]:
    by_round: dict[int, list[str]] = defaultdict(list)
    for judgment in case.judgments:
        label = (judgment.value or {}).get("label")
        if label:
            by_round[judgment.round].append(label)
    return dict(by_round)


def gold_memo_key(case: GoldCase) -> tuple:
    """What gold_decide reads: the author's label, the item's round and each label with its round, in
    order (never who gave it, nor the settings)."""
    return (
        case.payload.get("label"),
        case.judging_round,
        tuple((j.round, (j.value or {}).get("label")) for j in case.judgments),
    )


def gold_decide(case: GoldCase) -> GoldOutcome:
    author_label = case.payload.get("label")
    by_round = labels_by_round(case)
    details: dict[str, Any] = {
        "label": None,
        "author_label": author_label or None,
        "round": case.judging_round,
        "labels_by_round": {str(n): labels for n, labels in sorted(by_round.items())},
    }
    try:
        decision = rounds.decide(author_label, by_round)
    except ValueError as exc:
        # Labels the protocol could not have produced (e.g. an extra validator): nothing is decided.
        return GoldOutcome("pending", reason=f"not decidable: {exc}", details=details)
    details["round"] = decision.round
    if decision.outcome == rounds.GOLD:
        details["label"] = decision.label
        return GoldOutcome("gold", reason=decision.reason, details=details)
    if decision.outcome == rounds.NO_GOLD:
        return GoldOutcome("no_gold", reason=decision.reason, details=details)
    next_round = decision.next_round if decision.outcome == rounds.NEEDS_ROUND else None
    return GoldOutcome("pending", reason=decision.reason, details=details, next_round=next_round)
