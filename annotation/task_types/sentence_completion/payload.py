"""The completion payload and its checks, as pure functions.

Canonical payload:
    {"premise": str, "completions": [str, str, str], "answer": "A" | "B" | "C" | "",
     "country": str, "region": str,
     "relevant_to_this_country": bool | None, "relevant_to_other_countries": bool | None}
plus "release" (what an imported file said that the protocol does not produce: sample_id, should_discard,
odd values as given) when the item came from a file, and "topic", "subtopic" when the author picked them
(names in the project's catalog: the service makes the item's unit that concept, category = topic,
concept = subtopic; an item without them keeps the unit it was planned or imported with).
"""

from __future__ import annotations

import unicodedata
from typing import Any

from django.utils.translation import gettext

from annotation import limits
from annotation.errors import InvalidInput
from annotation.task_types.base import FieldChange, PayloadCheck
from annotation.task_types.sentence_completion.places import (
    ARABIC_KEYS,
    COUNTRIES,
    ENGLISH_KEYS,
    REGION_OF,
    country_name,
)

LETTERS = ENGLISH_KEYS
SCRIPTS = ("arabic", "any")
YES = {"yes", "y", "true", "1", "on", "نعم"}
NO = {"no", "n", "false", "0", "off", "لا"}
# Letters of the Arabic blocks (Arabic, Supplement, Extended-A, Presentation Forms A and B).
_ARABIC_RANGES = ((0x0600, 0x06FF), (0x0750, 0x077F), (0x08A0, 0x08FF), (0xFB50, 0xFDFF), (0xFE70, 0xFEFF))


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, str | int | float) and not isinstance(value, bool):
        return str(value).strip()
    raise InvalidInput(gettext("The item has the wrong shape."), field_errors={"premise": [gettext("Must be text.")]})


def yes_no(value: Any) -> bool | None:
    """True / False from a bool or the release's "Yes" / "No"; None when absent or unreadable."""
    if isinstance(value, bool):
        return value
    if isinstance(value, str):
        folded = value.strip().casefold()
        if folded in YES:
            return True
        if folded in NO:
            return False
    return None


def answer_letter(value: Any) -> str:
    """ "A".."C" from an English or Arabic key ("ب" -> "B"); "" when absent, the text as given when odd."""
    text = str(value or "").strip()
    if text.upper() in LETTERS:
        return text.upper()
    if text in ARABIC_KEYS:
        return LETTERS[ARABIC_KEYS.index(text)]
    return text


def normalize(data: dict[str, Any]) -> dict[str, Any]:
    """Accepts the canonical shape, or the release's `options{text}` / `answer_key` / `first_statement`."""
    if not isinstance(data, dict):
        raise InvalidInput(
            gettext("The item has the wrong shape."), field_errors={"premise": [gettext("Give an object.")]}
        )
    premise = _text(data.get("premise", data.get("first_statement")))
    completions = data.get("completions")
    if completions is None and isinstance(data.get("options"), dict):
        completions = data["options"].get("text")
    if completions is None:
        completions = [data.get(f"completion_{letter.lower()}") for letter in LETTERS]
    if not isinstance(completions, list | tuple) or len(completions) > len(LETTERS):
        raise InvalidInput(
            gettext("The item has the wrong shape."),
            field_errors={"completions": [gettext("Give %(len)s completions.") % {"len": len(LETTERS)}]},
        )
    texts = [_text(c) for c in completions] + [""] * (len(LETTERS) - len(completions))
    answer = data.get("answer")
    if answer is None and isinstance(data.get("answer_key"), dict):
        answer = data["answer_key"].get("english_answer_key") or data["answer_key"].get("arabic_answer_key")
    answer = answer_letter(answer)
    country = _text(data.get("country"))
    country = country_name(country) or country
    region = REGION_OF.get(country) or _text(data.get("region"))
    topic, subtopic = _text(data.get("topic")), _text(data.get("subtopic"))
    errors = limits.text_errors(
        [
            ("premise", premise, limits.QUESTION),
            *(
                (f"completion_{letter.lower()}", text, limits.OPTION)
                for letter, text in zip(LETTERS, texts, strict=True)
            ),
            ("answer", answer, limits.ANSWER_LABEL),
            ("country", country, 100),
            ("region", region, 100),
            ("topic", topic, 200),
            ("subtopic", subtopic, 300),
        ]
    )
    if errors:
        raise InvalidInput(
            gettext("The item can't be saved: check the %(join)s.") % {"join": ", ".join(errors)}, field_errors=errors
        )
    payload: dict[str, Any] = {
        "premise": premise,
        "completions": texts,
        "answer": answer,
        "country": country,
        "region": region,
        "relevant_to_this_country": yes_no(data.get("relevant_to_this_country")),
        "relevant_to_other_countries": yes_no(data.get("relevant_to_other_countries")),
    }
    if topic or subtopic:
        payload["topic"], payload["subtopic"] = topic, subtopic
    if isinstance(data.get("release"), dict) and data["release"]:
        payload["release"] = data["release"]
    return payload


def is_arabic_script(text: str) -> bool:
    """Most letters are Arabic (a Latin name or a number inside an Arabic sentence is fine)."""
    letters = [ch for ch in text if unicodedata.category(ch).startswith("L")]
    if not letters:
        return False
    arabic = sum(1 for ch in letters if any(lo <= ord(ch) <= hi for lo, hi in _ARABIC_RANGES))
    return arabic * 2 > len(letters)


def _fold(text: str) -> str:
    # Compare without case, tatweel, Arabic diacritics or spacing differences.
    text = unicodedata.normalize("NFKC", text).casefold().replace("\u0640", "")
    text = "".join(ch for ch in text if not (0x064B <= ord(ch) <= 0x065F or ord(ch) == 0x0670))
    return " ".join("".join(ch if ch.isalnum() else " " for ch in text).split())


def check(payload: dict[str, Any], *, script: str = "arabic") -> PayloadCheck:
    errors: dict[str, list[str]] = {}
    premise = payload.get("premise", "")
    completions = payload.get("completions", [])
    if not premise:
        errors["premise"] = [gettext("Write the premise (the start of the sentence).")]
    elif script == "arabic" and not is_arabic_script(premise):
        errors["premise"] = [gettext("Write the premise in Arabic script.")]
    seen: dict[str, str] = {}
    warnings: dict[str, list[str]] = {}
    folded_premise = _fold(premise)
    for letter, text in zip(LETTERS, completions, strict=False):
        field = f"completion_{letter.lower()}"
        if not text:
            errors.setdefault(field, []).append(gettext("Completion %(letter)s is empty.") % {"letter": letter})
            continue
        if script == "arabic" and not is_arabic_script(text):
            errors.setdefault(field, []).append(
                gettext("Write completion %(letter)s in Arabic script.") % {"letter": letter}
            )
        key = _fold(text)
        if key in seen:
            errors.setdefault(field, []).append(
                gettext("Completion %(letter)s repeats completion %(seen)s.") % {"letter": letter, "seen": seen[key]}
            )
        else:
            seen[key] = letter
        if folded_premise and (key == folded_premise or key.startswith(folded_premise)):
            warnings.setdefault(field, []).append(
                f"Completion {letter} repeats the premise. Write only the ending, or explain why in the "
                "justification to submit anyway."
            )
    if payload.get("answer") not in LETTERS:
        errors["answer"] = [gettext("Mark the culturally right completion.")]
    if payload.get("country") not in COUNTRIES:
        errors["country"] = [gettext("Choose one of the countries: %(join)s.") % {"join": ", ".join(COUNTRIES)}]
    for field in ("relevant_to_this_country", "relevant_to_other_countries"):
        if payload.get(field) is None:
            errors[field] = [gettext("Answer yes or no.")]
    return PayloadCheck(errors=errors, warnings=warnings)


def _yn(value: Any) -> str:
    return {True: "Yes", False: "No"}.get(value, "")


def diff(old: dict[str, Any] | None, new: dict[str, Any]) -> list[FieldChange]:
    old = old or {}
    changes = []
    if old.get("premise", "") != new.get("premise", ""):
        changes.append(FieldChange("Premise", old.get("premise", ""), new.get("premise", "")))
    old_completions = list(old.get("completions", [])) + [""] * len(LETTERS)
    new_completions = list(new.get("completions", [])) + [""] * len(LETTERS)
    for i, letter in enumerate(LETTERS):
        if old_completions[i] != new_completions[i]:
            changes.append(FieldChange(f"Completion {letter}", old_completions[i], new_completions[i]))
    for field, label in (("answer", "Answer"), ("country", "Country"), ("topic", "Topic"), ("subtopic", "Subtopic")):
        if old.get(field, "") != new.get(field, ""):
            changes.append(FieldChange(label, old.get(field, ""), new.get(field, "")))
    for field, label in (
        ("relevant_to_this_country", "Relevant to this country"),
        ("relevant_to_other_countries", "Relevant to other countries"),
    ):
        if old.get(field) != new.get(field):
            changes.append(FieldChange(label, _yn(old.get(field)), _yn(new.get(field))))
    return changes
