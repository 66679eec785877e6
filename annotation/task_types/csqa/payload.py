"""The csqa payload and its checks, as pure functions.

Canonical payload: {"question": str, "choices": [str x 5], "answer": "A".."E"}.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext

from annotation import limits
from annotation.errors import InvalidInput
from annotation.task_types.base import FieldChange, PayloadCheck
from annotation.task_types.csqa.morphology import fold, mentions_concept

LABELS = ("A", "B", "C", "D", "E")


def _is_text(value: Any) -> bool:
    return value is None or (isinstance(value, str | int | float) and not isinstance(value, bool))


def shape_errors(data: dict[str, Any]) -> dict[str, list[str]]:
    """What can't be read as a csqa payload at all (API clients may send any JSON), by field."""
    errors: dict[str, list[str]] = {}
    for field in ("question", "answer"):
        if not _is_text(data.get(field)):
            errors[field] = [gettext("Must be text.")]
    choices = data.get("choices")
    # id-csqa's {"label": [...], "text": [...]} form, or a plain list.
    parts = [choices.get("label") or [], choices.get("text") or []] if isinstance(choices, dict) else [choices or []]
    if not all(isinstance(part, list | tuple) and all(_is_text(c) for c in part) for part in parts):
        errors["choices"] = [gettext("Must be a list of %(len)s texts.") % {"len": len(LABELS)}]
    elif not isinstance(choices, dict) and len(parts[0]) > len(LABELS):
        errors["choices"] = [gettext("Give at most %(len)s options.") % {"len": len(LABELS)}]
    return errors


def normalize(data: dict[str, Any]) -> dict[str, Any]:
    """Accepts {"choices": [...]} or id-csqa's {"choices": {"label": [...], "text": [...]}}."""
    errors = shape_errors(data)
    if errors:
        raise InvalidInput(gettext("The item has the wrong shape."), field_errors=errors)
    choices = data.get("choices") or []
    if isinstance(choices, dict):
        by_label = dict(zip(choices.get("label") or [], choices.get("text") or [], strict=False))
        choices = [by_label.get(label, "") for label in LABELS]
    texts = [str(c if c is not None else "").strip() for c in list(choices)[: len(LABELS)]]
    texts += [""] * (len(LABELS) - len(texts))
    answer = str(data.get("answer") or "").strip().upper()
    question = str(data.get("question") or "").strip()
    # Refused even for a draft: what is saved must fit the limits and be storable text.
    errors = limits.text_errors(
        [
            ("question", question, limits.QUESTION),
            *((f"choice_{label.lower()}", text, limits.OPTION) for label, text in zip(LABELS, texts, strict=True)),
            ("answer", answer, limits.ANSWER_LABEL),
        ]
    )
    if errors:
        fields = ", ".join(f"option {f[-1].upper()}" if f.startswith("choice_") else f for f in errors)
        raise InvalidInput(
            gettext("The item can't be saved: check the %(fields)s.") % {"fields": fields}, field_errors=errors
        )
    return {"question": question, "choices": texts, "answer": answer}


def check(payload: dict[str, Any], *, concept: str | None) -> PayloadCheck:
    errors: dict[str, list[str]] = {}
    question = payload.get("question", "")
    choices = payload.get("choices", [])
    if not question:
        errors.setdefault("question", []).append(gettext("Write the question."))
    seen: dict[str, str] = {}
    for label, text in zip(LABELS, choices, strict=False):
        field = f"choice_{label.lower()}"
        if not text:
            errors.setdefault(field, []).append(gettext("Option %(label)s is empty.") % {"label": label})
            continue
        key = " ".join(fold(text).split())
        if key in seen:
            errors.setdefault(field, []).append(
                gettext("Option %(label)s repeats option %(seen)s.") % {"label": label, "seen": seen[key]}
            )
        else:
            seen[key] = label
    if payload.get("answer") not in LABELS:
        errors.setdefault("answer", []).append(gettext("Mark one option as the correct answer."))
    warnings: dict[str, list[str]] = {}
    if question and concept and not mentions_concept(question, concept):
        warnings["question"] = [
            f"The question does not contain the concept “{concept}”. Use it, or explain why in the "
            "justification to submit anyway."
        ]
    return PayloadCheck(errors=errors, warnings=warnings)


def diff(old: dict[str, Any] | None, new: dict[str, Any]) -> list[FieldChange]:
    old = old or {"question": "", "choices": [""] * len(LABELS), "answer": ""}
    changes = []
    if old.get("question") != new.get("question"):
        changes.append(FieldChange("Question", old.get("question", ""), new.get("question", "")))
    old_choices = list(old.get("choices", [])) + [""] * len(LABELS)
    for i, label in enumerate(LABELS):
        if old_choices[i] != new["choices"][i]:
            changes.append(FieldChange(f"Option {label}", old_choices[i], new["choices"][i]))
    if old.get("answer") != new.get("answer"):
        changes.append(FieldChange("Answer", old.get("answer", ""), new.get("answer", "")))
    return changes
