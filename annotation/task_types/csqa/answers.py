"""A csqa cross-answer (judgment) and its checks, as pure functions.

Canonical judgment:
    value    {"answer": "A".."E"}
    flags    {"uncertain": bool, "question_ambiguous": bool, "option_ambiguous": [bool x 5]}
    comment  free text (the annotator's reason)

Imported judgments may hold None in a flag (the source file had no usable value) and keep the source's
unusable value under flags["raw"], so nothing is silently turned into "certain" or "clear".
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext

from annotation import limits
from annotation.errors import InvalidInput
from annotation.task_types.base import JudgmentInput
from annotation.task_types.csqa.payload import LABELS

MAX_COMMENT = limits.COMMENT


def _as_bool(value: Any) -> bool | None:
    """Checkbox-like input: True/False, "on"/"true"/"1", missing -> False. Anything else is refused."""
    if value is None or value is False or value == "":
        return False
    if value is True:
        return True
    if isinstance(value, str) and value.strip().casefold() in {"on", "true", "1", "yes"}:
        return True
    if isinstance(value, str) and value.strip().casefold() in {"off", "false", "0", "no"}:
        return False
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    return None


def normalize_answer(data: dict[str, Any]) -> JudgmentInput:
    """Validate an answer from a form or the API; raise InvalidInput with per-field messages.

    Accepts the canonical shape ({"value": {...}, "flags": {...}, "comment": ...}) or a flat one
    ({"answer": "C", "uncertain": true, "question_ambiguous": false, "option_ambiguous": [...]}).
    """
    value = data.get("value") if isinstance(data.get("value"), dict) else data
    flags_in = data.get("flags") if isinstance(data.get("flags"), dict) else data
    errors: dict[str, list[str]] = {}

    answer = str(value.get("answer") or "").strip().upper()
    if answer not in LABELS:
        errors["answer"] = [gettext("Choose one of the options A-E.")]

    flags: dict[str, Any] = {}
    for name in ("uncertain", "question_ambiguous"):
        parsed = _as_bool(flags_in.get(name))
        if parsed is None:
            errors[name] = [gettext("Must be true or false.")]
        flags[name] = parsed
    options = flags_in.get("option_ambiguous")
    if options is None or options == "":
        flags["option_ambiguous"] = [False] * len(LABELS)
    elif not isinstance(options, list | tuple) or len(options) != len(LABELS):
        errors["option_ambiguous"] = [gettext("Give one true/false per option (%(len)s).") % {"len": len(LABELS)}]
    else:
        parsed_options = [_as_bool(v) for v in options]
        if any(v is None for v in parsed_options):
            errors["option_ambiguous"] = [gettext("Each option flag must be true or false.")]
        flags["option_ambiguous"] = parsed_options

    comment = data.get("comment") or ""
    if not isinstance(comment, str):
        errors["comment"] = [gettext("Must be text.")]
        comment = ""
    comment = comment.strip()
    if len(comment) > MAX_COMMENT:
        errors["comment"] = [
            gettext("Keep the reason under %(MAX_COMMENT)s characters.") % {"MAX_COMMENT": MAX_COMMENT}
        ]
    if errors:
        raise InvalidInput(gettext("The answer can't be saved yet."), field_errors=errors)
    return JudgmentInput(value={"answer": answer}, flags=flags, comment=comment)
