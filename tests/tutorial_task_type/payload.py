"""The item: one sentence and the sentiment its author meant it to carry, if any.

payload = {"text": "...", "label": "positive" | "negative" | "neutral" | ""}

"" : no intended label (a sentence imported from a corpus, or written without one). The judges label
every sentence; the author's label never votes (judging.py).

`normalize` shapes what a form, the API or a file gives into that payload and refuses only what can't be
stored; `check` says what is wrong with a stored payload (the author fixes it before submitting).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext, gettext_lazy

from annotation import limits
from annotation.errors import InvalidInput
from annotation.task_types.base import FieldChange, PayloadCheck

POSITIVE, NEGATIVE, NEUTRAL = "positive", "negative", "neutral"
LABELS = (POSITIVE, NEGATIVE, NEUTRAL)
LABEL_NAMES = {POSITIVE: gettext_lazy("positive"), NEGATIVE: gettext_lazy("negative"), NEUTRAL: gettext_lazy("neutral")}
TEXT = limits.QUESTION  # characters of one sentence


def normalize(data: dict[str, Any]) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise InvalidInput(gettext("An item must be an object."), field_errors={"text": [gettext("Give an object.")]})
    text, label = data.get("text", ""), data.get("label", "")
    errors = limits.text_errors([("text", text, TEXT), ("label", label, limits.ANSWER_LABEL)])
    if errors:
        raise InvalidInput(gettext("This item can't be stored."), field_errors=errors)
    return {"text": " ".join(text.split()), "label": label.strip().lower()}


def check(payload: dict[str, Any], *, concept: str | None) -> PayloadCheck:
    errors: dict[str, list[str]] = {}
    if not payload.get("text"):
        errors["text"] = [gettext("Write a sentence.")]
    if payload.get("label") not in (*LABELS, ""):
        errors["label"] = [gettext("Choose positive, negative or neutral, or leave it empty.")]
    return PayloadCheck(errors=errors)


def diff(old: dict[str, Any] | None, new: dict[str, Any]) -> list[FieldChange]:
    old = old or {"text": "", "label": ""}
    return [
        FieldChange(name, old.get(key, ""), new.get(key, ""))
        for key, name in (("text", gettext("Sentence")), ("label", gettext("Label")))
        if old.get(key, "") != new.get(key, "")
    ]


def summary(payload: dict[str, Any]) -> str:
    return payload.get("text", "")
