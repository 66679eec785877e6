"""A word-level diff between two versions of a text, for reviewers and authors: which words went, which
came. Pure (no Django models), so it is tested on its own; the template filter escapes the text."""

from __future__ import annotations

import difflib
import re

# Words (any script: \w is Unicode), runs of white space, and single other characters (punctuation), so a
# changed comma or a changed word is marked on its own and the text joins back exactly.
_TOKEN = re.compile(r"\w+|\s+|[^\w\s]", re.UNICODE)

EQUAL, DELETE, INSERT = "equal", "delete", "insert"


def tokens(text: str) -> list[str]:
    return _TOKEN.findall(text or "")


def word_diff(old: str, new: str) -> list[tuple[str, str]]:
    """[(op, text), ...] with op equal/delete/insert; a replacement is its deletion then its insertion.
    Joining the equal+delete parts gives `old` back, equal+insert parts gives `new`."""
    a, b = tokens(old), tokens(new)
    parts: list[tuple[str, str]] = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes():
        if op == "equal":
            parts.append((EQUAL, "".join(a[i1:i2])))
            continue
        if op in ("delete", "replace"):
            parts.append((DELETE, "".join(a[i1:i2])))
        if op in ("insert", "replace"):
            parts.append((INSERT, "".join(b[j1:j2])))
    return parts
