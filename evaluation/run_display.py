"""How a run is named and described to people (pure: no ORM)."""

from __future__ import annotations

import json
from typing import Any

from django.utils.translation import gettext, ngettext

from evaluation.kinds import kinds

# Long values (a prompt template, a long id list) are cut on the run page; the calls keep them whole.
VALUE_SHOWN = 300


def run_title(*, kind: str, models: int) -> str:
    """ "Responses to rate, 4 models": what the run does and over how many models."""
    known = kinds().get(kind)
    # A kind no longer registered (a removed task type) keeps its stored name.
    title = str(known.title) if known else kind
    return ngettext("%(title)s, %(n)s model", "%(title)s, %(n)s models", models) % {"title": title, "n": models}


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return gettext("yes") if value else gettext("no")
    if value is None or value == "" or value == [] or value == {}:
        return "—"
    if isinstance(value, list | tuple) and all(isinstance(v, str | int | float) for v in value):
        text = ", ".join(str(v) for v in value)
    elif isinstance(value, dict):
        text = "; ".join(f"{_label(str(k))}: {_value(v)}" for k, v in value.items())
    elif isinstance(value, str | int | float):
        text = str(value)
    else:
        text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= VALUE_SHOWN else text[: VALUE_SHOWN - 1] + "…"


def _label(key: str) -> str:
    words = key.replace("_", " ").strip()
    return words[:1].upper() + words[1:]


def parameter_rows(parameters: dict[str, Any]) -> list[tuple[str, str]]:
    """A run's parameters as (label, value) rows: "max_tokens" -> "Max tokens", lists joined, booleans
    as yes/no, long values cut."""
    return [(_label(str(key)), _value(value)) for key, value in (parameters or {}).items()]
