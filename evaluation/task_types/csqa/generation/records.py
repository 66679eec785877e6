"""One generated JSON object -> a csqa payload candidate, accepting the shapes models actually return.

choices: {"A": text, ...}, id-csqa's {"label": [...], "text": [...]}, a list of texts (with or without
"A." / "A)" / "A:" prefixes), or a list of {"label", "text"} objects. The answer: "B", "(b)",
"B. text" or the option's text. The concept: "question_concepts" (the paper's key), "question_concept"
or "concept", as text or a one-element list.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from annotation.task_types.csqa.morphology import fold
from annotation.task_types.csqa.payload import LABELS

CONCEPT_KEYS = ("question_concepts", "question_concept", "concept", "concepts")
ANSWER_KEYS = ("answer_creator", "answer", "answerKey", "answer_key", "correct_answer", "question_answer")
CHOICE_KEYS = ("choices", "options")
_LABEL_PREFIX = re.compile(r"^\s*\(?([A-Ea-e])\s*[.):]\s+(.*)$", re.DOTALL)
_BARE_LABEL = re.compile(r"^\s*\(?([A-Ea-e])\)?\s*[.):]?\s*$")


@dataclass
class Candidate:
    concept: str | None
    data: dict[str, Any]  # {"question", "choices": [5], "answer"}: csqa's normalize input
    problems: list[str]


def looks_like_item(value: dict[str, Any]) -> bool:
    return isinstance(value.get("question"), str)


def _text(value: Any) -> str:
    if isinstance(value, str):
        return value.strip()
    if isinstance(value, int | float) and not isinstance(value, bool):
        return str(value)
    return ""


def _strip_label(text: str, expected: str | None) -> tuple[str | None, str]:
    match = _LABEL_PREFIX.match(text)
    if match and (expected is None or match.group(1).upper() == expected):
        return match.group(1).upper(), match.group(2).strip()
    return None, text


def choices_of(record: dict[str, Any]) -> tuple[list[str], list[str]]:
    """The five option texts in A-E order (missing ones empty), and what was odd about them."""
    raw = next((record[k] for k in CHOICE_KEYS if k in record), None)
    problems: list[str] = []
    by_label: dict[str, str] = {}
    if isinstance(raw, dict) and isinstance(raw.get("label"), list) and isinstance(raw.get("text"), list):
        pairs = zip(raw["label"], raw["text"], strict=False)
        by_label = {_text(label).upper(): _text(text) for label, text in pairs}
    elif isinstance(raw, dict):
        for label, text in raw.items():
            by_label[_text(label).strip("(). ").upper()] = _text(text)
    elif isinstance(raw, list):
        for position, element in enumerate(raw):
            expected = LABELS[position] if position < len(LABELS) else None
            if isinstance(element, dict):
                label = _text(element.get("label")).upper() or expected or ""
                by_label[label] = _text(element.get("text"))
                continue
            found, text = _strip_label(_text(element), expected)
            by_label[found or expected or f"#{position}"] = text
    elif raw is not None:
        problems.append("The choices are neither a list nor an object.")
    extra = [label for label in by_label if label not in LABELS]
    if extra:
        problems.append(f"Choices beyond A-E: {', '.join(extra)}.")
    return [by_label.get(label, "") for label in LABELS], problems


def answer_of(record: dict[str, Any], choices: list[str]) -> str:
    raw = _text(next((record[k] for k in ANSWER_KEYS if k in record), ""))
    bare = _BARE_LABEL.match(raw)
    if bare:
        return bare.group(1).upper()
    labelled = _LABEL_PREFIX.match(raw)
    if labelled:
        return labelled.group(1).upper()
    wanted = fold(raw).strip()
    for label, text in zip(LABELS, choices, strict=True):
        if wanted and fold(text).strip() == wanted:
            return label
    return raw.upper()[:20]  # kept for the error message; csqa's check refuses it


def concept_of(record: dict[str, Any]) -> str | None:
    for key in CONCEPT_KEYS:
        value = record.get(key)
        if isinstance(value, list) and len(value) == 1:
            value = value[0]
        text = _text(value)
        if text:
            return text
    return None


def candidate(record: dict[str, Any]) -> Candidate:
    choices, problems = choices_of(record)
    return Candidate(
        concept=concept_of(record),
        data={"question": _text(record.get("question")), "choices": choices, "answer": answer_of(record, choices)},
        problems=problems,
    )
