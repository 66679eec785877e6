"""One hypothesis (an NLI item) and its checks, as pure functions.

Canonical payload: {"hypothesis": str, "label": "entailment" | "neutral" | "contradiction" | "",
"tags": [phenomenon codes, sorted as in Table 11]}. The premise is not in the payload: it is the unit
(Concept.data["text"]) the six hypotheses of one authoring assignment share.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext

from annotation import limits
from annotation.errors import InvalidInput
from annotation.task_types.base import FieldChange, PayloadCheck
from annotation.task_types.nli.labels import (
    LABELS,
    PHENOMENA,
    UnknownLabel,
    UnknownPhenomenon,
    normalize_label,
    normalize_phenomenon,
)

HYPOTHESIS = 1000  # characters; the paper's longest hypotheses have a few dozen words
TAG_ORDER = {tag: i for i, tag in enumerate(PHENOMENA)}


def _text(value: Any) -> str | None:
    if value is None:
        return ""
    if isinstance(value, str | int | float) and not isinstance(value, bool):
        return str(value).strip()
    return None


def normalize(data: dict[str, Any]) -> dict[str, Any]:
    """Shape input into the canonical payload; refuse what can't be stored (an unknown label or tag too)."""
    if not isinstance(data, dict):
        raise InvalidInput(
            gettext("A hypothesis must be an object."), field_errors={"hypothesis": [gettext("Give an object.")]}
        )
    errors: dict[str, list[str]] = {}
    hypothesis = _text(data.get("hypothesis"))
    if hypothesis is None:
        errors["hypothesis"] = [limits.NOT_TEXT]
        hypothesis = ""
    label = ""
    try:
        label = normalize_label(data.get("label") if data.get("label") is not None else "") or ""
    except UnknownLabel:
        errors["label"] = [gettext("Choose one of %(join)s.") % {"join": ", ".join(LABELS)}]
    raw_tags = data.get("tags") or []
    if isinstance(raw_tags, str):
        raw_tags = [t for t in raw_tags.replace(";", ",").split(",") if t.strip()]
    tags: set[str] = set()
    if not isinstance(raw_tags, list | tuple):
        errors["tags"] = [gettext("Give a list of phenomenon tags.")]
    else:
        for raw in raw_tags:
            try:
                tags.add(normalize_phenomenon(raw))
            except UnknownPhenomenon:
                errors.setdefault("tags", []).append(
                    gettext("Unknown tag “%(shown)s”; use %(join)s.")
                    % {"shown": limits.shown(raw), "join": ", ".join(PHENOMENA)}
                )
    errors.update(limits.text_errors([("hypothesis", hypothesis, HYPOTHESIS)]) if "hypothesis" not in errors else {})
    if errors:
        raise InvalidInput(
            gettext("The hypothesis can't be saved: check the %(join)s.") % {"join": ", ".join(errors)},
            field_errors=errors,
        )
    return {"hypothesis": hypothesis, "label": label, "tags": sorted(tags, key=TAG_ORDER.__getitem__)}


def check(payload: dict[str, Any], *, concept: str | None = None, expert: bool = False) -> PayloadCheck:
    """One hypothesis on its own: written, labelled, and (expert project) tagged. `concept` (the premise's
    name, as TaskType.check_payload gives it) is not read: check_unit checks a hypothesis against its premise."""
    errors: dict[str, list[str]] = {}
    if not payload.get("hypothesis"):
        errors["hypothesis"] = [gettext("Write the hypothesis.")]
    if payload.get("label") not in LABELS:
        errors["label"] = [gettext("Choose entailment, neutral or contradiction.")]
    if expert and not payload.get("tags"):
        errors["tags"] = [gettext("Tag at least one inference phenomenon.")]
    return PayloadCheck(errors=errors)


def diff(old: dict[str, Any] | None, new: dict[str, Any]) -> list[FieldChange]:
    old = old or {"hypothesis": "", "label": "", "tags": []}
    changes = []
    if old.get("hypothesis", "") != new.get("hypothesis", ""):
        changes.append(FieldChange("Hypothesis", old.get("hypothesis", ""), new.get("hypothesis", "")))
    if old.get("label", "") != new.get("label", ""):
        changes.append(FieldChange("Label", old.get("label", ""), new.get("label", "")))
    if list(old.get("tags") or []) != list(new.get("tags") or []):
        changes.append(FieldChange("Tags", ", ".join(old.get("tags") or []), ", ".join(new.get("tags") or [])))
    return changes


def summary(payload: dict[str, Any]) -> str:
    return payload.get("hypothesis", "")


# --- the six hypotheses of one premise -----------------------------------------------------------

_HYPOTHESIS_CODES = {"empty", "copies_premise", "duplicate", "one_sentence", "no_shared_word"}


def field_name(kind: str, index: int) -> str:
    """The author form's field for hypothesis `index` (0-based): hypothesis_1, label_1, tags_1, ..."""
    return f"{kind}_{index + 1}"


def check_unit(payloads: list[dict[str, Any]], *, premise: str, expert: bool) -> PayloadCheck:
    """The writing checks (checks.check_hypotheses) over one premise's hypotheses, keyed by form field.

    Errors name the hypothesis; a set-level error (not two per label) goes under "hypotheses".
    """
    from annotation.task_types.nli.checks import check_hypotheses

    result = check_hypotheses(premise, [(p.get("hypothesis", ""), p.get("label") or None) for p in payloads])
    errors: dict[str, list[str]] = {}
    warnings: dict[str, list[str]] = {}
    for issues, out in ((result.errors, errors), (result.warnings, warnings)):
        for issue in issues:
            if issue.index is None:
                key = "hypotheses"
            else:
                key = field_name("hypothesis" if issue.code in _HYPOTHESIS_CODES else "label", issue.index)
            out.setdefault(key, []).append(issue.message)
    if expert:
        for index, payload in enumerate(payloads):
            if not payload.get("tags"):
                errors.setdefault(field_name("tags", index), []).append(
                    gettext("Hypothesis %(index___1)s: tag at least one inference phenomenon.")
                    % {"index___1": index + 1}
                )
    return PayloadCheck(errors=errors, warnings=warnings)


def tag_spread(payloads: list[dict[str, Any]]) -> list[tuple[str, str, int]]:
    """(tag, name, count) for every phenomenon, in Table 11's order: how a writer's tags are spread."""
    counts = dict.fromkeys(PHENOMENA, 0)
    for payload in payloads:
        for tag in payload.get("tags") or []:
            if tag in counts:
                counts[tag] += 1
    return [(tag, PHENOMENA[tag].name, counts[tag]) for tag in PHENOMENA]
