"""One prompt variant (a cultural_prompt item) and its checks, as pure functions.

Canonical payload:
    {"prompt_id": str, "variation_id": str,          # the paper's prompt_id / prompt_variation_id
     "category": str, "topic": str,
     "user": str, "context": str, "situation": str, "instruction": str,
     "prompt": str,                                   # the text a model and a validator read
     "relevant": [str, ...], "irrelevant": [str, ...],
     "best": int}                                     # index of the best response in `relevant`

The prompt is assembled from its parts, one per line (user, context, personal situation, instruction;
empty parts left out). An imported prompt keeps its text exactly as the file gave it, with the parts
read back from its lines (`split_prompt`), so export then import gives the same text.
Variants share a base prompt (`prompt_id`); each has its own personal situation and responses.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext, gettext_lazy

from annotation import limits
from annotation.errors import InvalidInput
from annotation.task_types.base import FieldChange, PayloadCheck

CATEGORIES = ("ethics", "shared knowledge")
MIN_RESPONSES = 3  # per kind (relevant, irrelevant): the paper's 3-5
MAX_RESPONSES = 5
PART_LENGTH = 2000
PROMPT_LENGTH = 8000
RESPONSE_LENGTH = 2000
ID_LENGTH = 60
NAME_LENGTH = 200
SEPARATOR = ";"  # the KALAHI file separates responses with it, so a response can't contain it
PARTS = ("user", "context", "situation", "instruction")
PART_LABELS = {
    "user": gettext_lazy("User"),
    "context": gettext_lazy("Context"),
    "situation": gettext_lazy("Personal situation"),
    "instruction": gettext_lazy("Instruction"),
}
RESPONSES_LABELS = {"relevant": gettext_lazy("Relevant responses"), "irrelevant": gettext_lazy("Irrelevant responses")}
EMPTY: dict[str, Any] = {
    "prompt_id": "",
    "variation_id": "",
    "category": "",
    "topic": "",
    "user": "",
    "context": "",
    "situation": "",
    "instruction": "",
    "prompt": "",
    "relevant": [],
    "irrelevant": [],
    "best": None,
}


def assemble(parts: dict[str, Any]) -> str:
    """The prompt text from its parts, one per line, empty parts left out."""
    return "\n".join(str(parts.get(name) or "") for name in PARTS if parts.get(name))


def split_prompt(prompt: str, *, variant: bool) -> dict[str, str]:
    """Parts read back from a prompt's lines: the first line is the user, the last the instruction, the
    line before it the personal situation when the prompt is a variant (not the base `..00`), the lines
    between the context. A two-line prompt is context + instruction, a one-line prompt an instruction."""
    lines = prompt.split("\n")
    parts = dict.fromkeys(PARTS, "")
    if len(lines) == 1:
        parts["instruction"] = lines[0]
        return parts
    parts["instruction"] = lines[-1]
    middle = lines[1:-1] if len(lines) >= 3 else lines[:-1]
    if len(lines) >= 3:
        parts["user"] = lines[0]
    if variant and len(middle) >= 2:
        parts["situation"] = middle[-1]
        middle = middle[:-1]
    parts["context"] = "\n".join(middle)
    return parts


def _text(value: Any) -> str | None:
    if value is None:
        return ""
    if isinstance(value, str | int | float) and not isinstance(value, bool):
        return str(value).replace("\r\n", "\n").replace("\r", "\n").strip()
    return None


def _responses(value: Any) -> list[str] | None:
    if value is None or value == "":
        return []
    if isinstance(value, str):
        value = value.split(SEPARATOR)
    if not isinstance(value, list | tuple):
        return None
    out = []
    for entry in value:
        text = _text(entry)
        if text is None:
            return None
        if text:
            out.append(text)
    return out


def normalize(data: dict[str, Any]) -> dict[str, Any]:
    """Shape input into the canonical payload; refuse only what can't be stored."""
    if not isinstance(data, dict):
        raise InvalidInput(
            gettext("A prompt must be an object."), field_errors={"prompt": [gettext("Give an object.")]}
        )
    errors: dict[str, list[str]] = {}
    out: dict[str, Any] = {}
    for name, max_length in (
        ("prompt_id", ID_LENGTH),
        ("variation_id", ID_LENGTH),
        ("category", NAME_LENGTH),
        ("topic", NAME_LENGTH),
        *((part, PART_LENGTH) for part in PARTS),
    ):
        text = _text(data.get(name))
        if text is None:
            errors[name] = [limits.NOT_TEXT]
            text = ""
        out[name] = text
        errors.update(limits.text_errors([(name, text, max_length)]) if name not in errors else {})
    out["category"] = out["category"].casefold() if out["category"].casefold() in CATEGORIES else out["category"]
    # The prompt as given (an import keeps its text exactly), else assembled from the parts.
    raw_prompt = data.get("prompt")
    prompt = raw_prompt.replace("\r\n", "\n") if isinstance(raw_prompt, str) else _text(raw_prompt)
    if prompt is None:
        errors["prompt"] = [limits.NOT_TEXT]
        prompt = ""
    out["prompt"] = prompt if prompt.strip() else assemble(out)
    errors.update(limits.text_errors([("prompt", out["prompt"], PROMPT_LENGTH)]) if "prompt" not in errors else {})
    for kind in ("relevant", "irrelevant"):
        responses = _responses(data.get(kind))
        if responses is None:
            errors[kind] = [gettext("Give a list of responses.")]
            responses = []
        for text in responses:
            problem = limits.text_problem(text, max_length=RESPONSE_LENGTH)
            if problem:
                errors.setdefault(kind, []).append(problem)
        out[kind] = responses
    best = data.get("best")
    if best in (None, ""):
        out["best"] = None
    elif isinstance(best, bool) or not isinstance(best, int | str) or not str(best).strip().isdigit():
        errors["best"] = [gettext("Give the number of the best relevant response.")]
        out["best"] = None
    else:
        out["best"] = int(best)
    if errors:
        raise InvalidInput(
            gettext("The prompt can't be saved: check the %(join)s.") % {"join": ", ".join(errors)}, field_errors=errors
        )
    return out


def _key(text: str) -> str:
    return " ".join(text.casefold().split())


def check(payload: dict[str, Any], *, unit: str | None = None) -> PayloadCheck:
    """Errors that block submission: parts written, 3-5 responses of each kind, all distinct, no `;`,
    exactly one best among the relevant ones. Written for a unit (a catalog topic of a category), the
    category and topic may be left to the unit."""
    errors: dict[str, list[str]] = {}
    for name in ("user", "context", "instruction"):
        if not payload.get(name):
            errors[name] = [gettext("Write the %(lower)s.") % {"lower": PART_LABELS[name].lower()}]
    if payload.get("prompt") and any(payload.get(part) for part in PARTS) and payload["prompt"] != assemble(payload):
        errors["prompt"] = [gettext("The prompt must be its parts, one per line: leave it out and it is assembled.")]
    if not payload.get("category") and unit is None:
        errors["category"] = [gettext("Choose the category.")]
    if not payload.get("topic") and unit is None:
        errors["topic"] = [gettext("Name the topic.")]
    seen: dict[str, str] = {}
    for kind in ("relevant", "irrelevant"):
        responses = payload.get(kind) or []
        if not MIN_RESPONSES <= len(responses) <= MAX_RESPONSES:
            errors.setdefault(kind, []).append(
                gettext("Write %(MIN_RESPONSES)s to %(MAX_RESPONSES)s %(kind)s responses (there are %(len)s).")
                % {"MIN_RESPONSES": MIN_RESPONSES, "MAX_RESPONSES": MAX_RESPONSES, "kind": kind, "len": len(responses)}
            )
        for number, text in enumerate(responses, start=1):
            if SEPARATOR in text:
                errors.setdefault(kind, []).append(
                    gettext(
                        "%(capitalize)s response %(number)s: remove the “;” (the KALAHI file separates "
                        "responses with it)."
                    )
                    % {"capitalize": kind.capitalize(), "number": number}
                )
            key = _key(text)
            if key in seen:
                errors.setdefault(kind, []).append(
                    gettext("%(capitalize)s response %(number)s repeats %(seen)s: every response must be different.")
                    % {"capitalize": kind.capitalize(), "number": number, "seen": seen[key]}
                )
            else:
                seen[key] = f"{kind} response {number}"
    best = payload.get("best")
    relevant = payload.get("relevant") or []
    if best is None:
        errors["best"] = [gettext("Mark one relevant response as the best.")]
    elif not 0 <= best < len(relevant):
        errors["best"] = [gettext("The best response must be one of the relevant responses.")]
    return PayloadCheck(errors=errors)


def ids(payload: dict[str, Any], *, external_id: str, item_id: int) -> tuple[str, str]:
    """(variation id, base prompt id) of an item: as given (an import, or the base a writer chose), else
    the item's external id, else `item-<id>`; a prompt that names no base is its own base."""
    variation = payload.get("variation_id") or external_id or f"item-{item_id}"
    return variation, payload.get("prompt_id") or variation


def is_base(payload: dict[str, Any], *, variation: str, prompt_id: str) -> bool:
    """The base prompt of its group: it names no other base, or its id is the base's plus `00` (KALAHI)."""
    return variation == prompt_id or variation == f"{prompt_id}00"


def base_prompts(unit_items: list[Any]) -> list[dict[str, Any]]:
    """The base prompts a variant may share, one per base id, from items of its unit (UnitItem): the id,
    a label and the shared parts (user, context, instruction) of the base itself, else of its first
    variant when the base prompt is not among them."""
    found: dict[str, dict[str, Any]] = {}
    for unit_item in unit_items:
        payload = unit_item.payload or {}
        variation, prompt_id = ids(payload, external_id=unit_item.external_id, item_id=unit_item.item_id)
        base = is_base(payload, variation=variation, prompt_id=prompt_id)
        if prompt_id in found and not base:
            continue
        first_line = (payload.get("context") or payload.get("prompt") or "").split("\n")[0]
        label = first_line if len(first_line) <= 90 else first_line[:89] + "…"
        found[prompt_id] = {
            "id": prompt_id,
            "label": f"{prompt_id}: {label}",
            "parts": {part: payload.get(part, "") for part in ("user", "context", "instruction")},
        }
    return list(found.values())


def best_text(payload: dict[str, Any]) -> str:
    best, relevant = payload.get("best"), payload.get("relevant") or []
    return relevant[best] if isinstance(best, int) and 0 <= best < len(relevant) else ""


def diff(old: dict[str, Any] | None, new: dict[str, Any]) -> list[FieldChange]:
    old = old or EMPTY
    changes = []
    for name, label in (
        ("category", gettext("Category")),
        ("topic", gettext("Topic")),
        *((part, PART_LABELS[part]) for part in PARTS),
        ("prompt", gettext("Prompt")),
    ):
        if (old.get(name) or "") != (new.get(name) or ""):
            changes.append(FieldChange(str(label), old.get(name) or "", new.get(name) or ""))
    for kind in ("relevant", "irrelevant"):
        if list(old.get(kind) or []) != list(new.get(kind) or []):
            changes.append(
                FieldChange(str(RESPONSES_LABELS[kind]), "\n".join(old.get(kind) or []), "\n".join(new.get(kind) or []))
            )
    if best_text(old) != best_text(new):
        changes.append(FieldChange(gettext("Best response"), best_text(old), best_text(new)))
    return changes


def summary(payload: dict[str, Any]) -> str:
    return payload.get("prompt") or assemble(payload)


def reference_errors(
    payload: dict[str, Any], *, unit_items: list[Any], kept: set[str], requested: str = ""
) -> dict[str, list[str]]:
    """The `prompt_id` a save may name: one of the unit's base prompts (base_prompts), the one the saved
    item already names (`kept`: an import may name a base outside the unit), or none (a new base prompt);
    a variant request (`requested`) names its base and only it."""
    prompt_id = payload.get("prompt_id") or ""
    if requested:
        if prompt_id != requested:
            return {
                "prompt_id": [
                    f"This assignment asks for a variant of base prompt {requested}: keep it as “Variant of”."
                ]
            }
        return {}
    if not prompt_id or prompt_id in kept:
        return {}
    offered = [base["id"] for base in base_prompts(unit_items)]
    if prompt_id in offered:
        return {}
    choices = f"one of its base prompts ({', '.join(offered)})" if offered else "none (it has no base prompt yet)"
    return {
        "prompt_id": [
            f"No base prompt of this unit has the id “{prompt_id}”: “Variant of” must be {choices}, or empty "
            "for a new base prompt."
        ]
    }
