"""How much text the services accept, in one place, so the pages, the API and the importers agree.

Columns with a `max_length` in the models use the same number; the others are TextField or JSON,
which PostgreSQL would take at any size, so the limit is ours. PostgreSQL refuses NUL (U+0000) in
text and in jsonb, and a lone surrogate (U+D800-U+DFFF) can't be encoded as UTF-8 at all: both are
refused here with a message rather than failing in the database.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Any

from annotation.errors import InvalidInput

# Item content (question, options, hypotheses).
QUESTION = 2000
OPTION = 500
# What a client may send as the answer of an item ("A".."E" once checked).
ANSWER_LABEL = 10
# The author's note when submitting despite a warning.
JUSTIFICATION = 2000
# An answerer's reason.
COMMENT = 5000
# A reviewer's feedback (shown to the author; also the reason of a rejection).
FEEDBACK = 5000
# A project's guidelines (Markdown).
GUIDELINES = 50_000
# The model columns: Category.name, Concept.name; translations of names have the same limit.
CATEGORY_NAME = 200
CONCEPT_NAME = 300
# An uploaded file (catalog units, item imports).
IMPORT_BYTES = 20 * 1024 * 1024
# Rows of one categories x concepts file (the benchmarks plan 100,000 concepts).
CONCEPT_ROWS = 200_000

# One message for every text that is too long, in the form Django's fields use ("%(limit_value)d"),
# so a page form can show the very message the service raises.
TOO_LONG = "Use at most %(limit_value)d characters (this has %(show_value)d)."
NUL = "Remove the NUL character (\\u0000): text can't contain it."
SURROGATE = "Remove the unpaired surrogate (\\u{code:04x}): it is not a character."
NOT_TEXT = "Must be text."

_SURROGATE = re.compile("[\ud800-\udfff]")


def text_problem(value: str, *, max_length: int) -> str | None:
    """Why `value` can't be stored as text of at most `max_length` characters, or None when it can."""
    if "\x00" in value:
        return NUL
    surrogate = _SURROGATE.search(value)
    if surrogate is not None:
        return SURROGATE.format(code=ord(surrogate.group()))
    if len(value) > max_length:
        return TOO_LONG % {"limit_value": max_length, "show_value": len(value)}
    return None


def upload_size_problem(size: int) -> str | None:
    """The one rule for an uploaded file's size (catalog and item imports, pages and API)."""
    if size > IMPORT_BYTES:
        return f"The file is larger than {IMPORT_BYTES // (1024 * 1024)} MB."
    return None


def text_errors(values: Iterable[tuple[str, Any, int]]) -> dict[str, list[str]]:
    """Field errors for (field, value, max_length) triples; a value that is not a str is refused too."""
    errors: dict[str, list[str]] = {}
    for field, value, max_length in values:
        problem = NOT_TEXT if not isinstance(value, str) else text_problem(value, max_length=max_length)
        if problem is not None:
            errors.setdefault(field, []).append(problem)
    return errors


def check_text(value: Any, *, field: str, max_length: int) -> str:
    """Return `value` if it may be stored; raise InvalidInput naming `field` otherwise."""
    errors = text_errors([(field, value, max_length)])
    if errors:
        raise InvalidInput(f"{field.replace('_', ' ').capitalize()}: {errors[field][0]}", field_errors=errors)
    return value


def shown(key: Any) -> str:
    """A JSON key as it may be shown in an error message: escaped, never the offending character itself."""
    text = str(key)[:100]
    return "".join(c if c.isprintable() and not _SURROGATE.match(c) else f"\\u{ord(c):04x}" for c in text)


def unstorable_strings(value: Any, *, max_depth: int, root: str = "body") -> Iterator[tuple[str, str]]:
    """(where, problem) for each string in decoded JSON that text can't hold (NUL, lone surrogate).

    Also refuses nesting deeper than `max_depth`. Walks with a stack, not recursion, so a deeply
    nested value can't exhaust Python's recursion limit here.
    """
    stack: list[tuple[Any, str, int]] = [(value, "", 0)]
    while stack:
        node, where, depth = stack.pop()
        if depth > max_depth:
            yield where or root, f"Nested more than {max_depth} levels deep."
            return
        if isinstance(node, dict):
            for key, child in node.items():
                path = f"{where}.{shown(key)}" if where else shown(key)
                stack.append((key, path, depth + 1))
                stack.append((child, path, depth + 1))
        elif isinstance(node, list):
            stack.extend((child, f"{where}[{i}]", depth + 1) for i, child in enumerate(node))
        elif isinstance(node, str):
            if "\x00" in node:
                yield where or root, NUL
            else:
                surrogate = _SURROGATE.search(node)
                if surrogate is not None:
                    yield where or root, SURROGATE.format(code=ord(surrogate.group()))
