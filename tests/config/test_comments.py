"""Comments say why, never which issue or session asked for the code: the tracker's number tells a reader
nothing the code's reason would not, and it is meaningless once the tracker moves.

Searched: the comments and docstrings of product and test Python modules (migrations included), and the whole text
of templates, scripts and style sheets (vendored files excepted).
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from pathlib import Path

from django.conf import settings

ROOT = Path(settings.BASE_DIR)
PRODUCT = ("annotation", "qc", "evaluation", "config", "bench", "scripts", "templates", "static", "tests")
TEXT_SUFFIXES = {".html", ".js", ".css", ".txt"}
CITATION = re.compile(r"\bissues?\s*#?\s*\d+|\bsession\s+\d+|\bthis\s+stop\b", re.IGNORECASE)
# Files other branches are restructuring, whose citations they rewrite; remove each entry when that branch
# is merged (the test fails on an entry whose file is clean, so the list can only shrink).
ALLOWED: set[str] = set()


def _python_text(source: str) -> list[tuple[int, str]]:
    """(line, text) of every comment and docstring."""
    found = [
        (token.start[0], token.string)
        for token in tokenize.generate_tokens(io.StringIO(source).readline)
        if token.type == tokenize.COMMENT
    ]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            docstring = ast.get_docstring(node, clean=False)
            if docstring is not None:
                found.append((node.body[0].lineno, docstring))
    return sorted(found)


def _citations(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8", errors="replace")
    pieces = _python_text(text) if path.suffix == ".py" else [(1, text)]
    hits = []
    for first_line, piece in pieces:
        for match in CITATION.finditer(piece):
            hits.append(f"{first_line + piece.count(chr(10), 0, match.start())}: {match.group(0)!r}")
    return hits


def _hits() -> dict[str, list[str]]:
    hits: dict[str, list[str]] = {}
    for top in PRODUCT:
        for path in sorted((ROOT / top).rglob("*")):
            if not path.is_file() or "vendor" in path.parts or "__pycache__" in path.parts:
                continue
            if path.suffix == ".py" or path.suffix in TEXT_SUFFIXES:
                rel = path.relative_to(ROOT).as_posix()
                if found := _citations(path):
                    hits[rel] = [f"{rel}:{hit}" for hit in found]
    return hits


def test_no_product_comment_cites_an_issue_or_session():
    hits = _hits()

    unexpected = [line for rel, lines in sorted(hits.items()) if rel not in ALLOWED for line in lines]
    assert unexpected == [], "Say why instead of citing the tracker:\n" + "\n".join(unexpected)
    stale = sorted(ALLOWED - set(hits))
    assert stale == [], f"Clean now, remove from ALLOWED: {stale}"


def test_a_citation_is_found_in_a_comment_and_a_docstring_not_in_code(tmp_path):
    module = tmp_path / "m.py"
    module.write_text(
        '"""Sort by date (Issue 13)."""\n\nX = "issue 4"  # as asked in session 2\n\n\ndef f():\n'
        '    """See issue #7\n    and more."""\n'
    )

    assert _citations(module) == ["1: 'Issue 13'", "3: 'session 2'", "7: 'issue #7'"]
