"""Reading JSON out of a model's reply, whatever the model wrapped it in.

Models answer "return only JSON" with code fences, a sentence before or after, an object keyed by
anything, or a reply cut off by the token limit. `json_values` returns every JSON value it can
recover, in order; `records` flattens them into the objects that look like data rows. Nothing here
raises on bad input: a reply with nothing readable gives an empty list and a problem note.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext_noop

_FENCE = re.compile(r"```[ \t]*([A-Za-z0-9_+-]*)[ \t]*\n?(.*?)(?:```|\Z)", re.DOTALL)
_DECODER = json.JSONDecoder()
# Where an object can start: a key or the closing brace.
_OBJECT_START = re.compile(r'\{\s*["}]')
# Trailing commas before a closing bracket: common in model output, invalid JSON.
_TRAILING_COMMA = re.compile(r",(\s*[\]}])")


@dataclass
class Extracted:
    values: list[Any]
    problems: list[str] = field(default_factory=list)
    truncated: bool = False


def _loads(text: str) -> Any:
    try:
        return json.loads(text)
    except (ValueError, RecursionError):  # RecursionError: brackets nested past Python's limit
        try:
            return json.loads(_TRAILING_COMMA.sub(r"\1", text))
        except RecursionError as exc:
            raise ValueError("nested too deeply") from exc


def _scan_objects(text: str) -> tuple[list[Any], bool]:
    """Every complete JSON object or array found by scanning; True if a value was left unclosed."""
    found: list[Any] = []
    position = 0
    failed = False
    # The next `{` and `[` are searched again only once passed: searching both from every position
    # rescanned the text to its end for the one that was absent (20,000 `{` took 0.4 s, 40,000 1.7 s).
    brace, bracket = text.find("{"), text.find("[")
    while True:
        if 0 <= brace < position:
            brace = text.find("{", position)
        if 0 <= bracket < position:
            bracket = text.find("[", position)
        starts = [i for i in (brace, bracket) if i >= 0]
        if not starts:
            break
        start = min(starts)
        if text[start] == "{" and not _OBJECT_START.match(text, start):
            # Not an object: what a failed decode concludes, without its error, which counts the lines
            # before it (a reply of 40,000 `{` took 0.7 s that way).
            failed = True
            position = start + 1
            continue
        try:
            value, end = _DECODER.raw_decode(text, start)
        except RecursionError:
            # Nested past Python's limit: not data, and stepping inside would hit the limit again at
            # every bracket (20,000 `[` took 7 s that way), so the rest of the text is left unread.
            failed = True
            break
        except ValueError:
            # Truncated, or prose with a bracket: step inside so the complete objects of a cut-off
            # array are still recovered.
            failed = True
            position = start + 1
            continue
        found.append(value)
        position = end
    opened = text.count("{") + text.count("[")
    closed = text.count("}") + text.count("]")
    return found, failed and opened > closed


def json_values(reply: str) -> Extracted:
    """The JSON values in a reply: the fenced blocks if any, else the whole text, else a scan."""
    text = (reply or "").strip()
    if not text:
        return Extracted([], [gettext_noop("The reply is empty.")])
    blocks = [m.group(2) for m in _FENCE.finditer(text)]
    candidates = blocks or [text]
    values: list[Any] = []
    problems: list[str] = []
    truncated = False
    for block in candidates:
        block = block.strip()
        try:
            values.append(_loads(block))
            continue
        except ValueError:
            pass
        scanned, left_open = _scan_objects(_TRAILING_COMMA.sub(r"\1", block))
        values.extend(scanned)
        truncated = truncated or left_open
    if truncated:
        problems.append(gettext_noop("The reply was cut off; the complete objects before the cut were kept."))
    if not values:
        problems.append(gettext_noop("No JSON was found in the reply."))
    return Extracted(values, problems, truncated)


def records(
    values: list[Any], *, is_record: Callable[[dict[str, Any]], bool]
) -> Iterator[tuple[dict[str, Any], str | None]]:
    """Flatten lists and wrapper objects into data rows: (row, the key it was found under, if any)."""

    def walk(value: Any, key: str | None, depth: int) -> Iterator[tuple[dict[str, Any], str | None]]:
        if depth > 6:
            return
        if isinstance(value, list):
            for element in value:
                yield from walk(element, key, depth + 1)
        elif isinstance(value, dict):
            if is_record(value):
                yield value, key
            else:
                # {"data": [...]}, {"concept name": {...}}, {"1": {...}}: the rows are inside.
                for inner_key, inner in value.items():
                    yield from walk(inner, str(inner_key), depth + 1)

    for value in values:
        yield from walk(value, None, 0)
