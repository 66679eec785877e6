"""Every repository path the manual quotes exists, so the map (docs/design/map.md) cannot rot.

A path is a `code` span outside fenced blocks that contains a slash and either ends in a source or text
extension or starts with a top-level directory of the repository (`scripts/start`, `tests/bench`). Spans with
a placeholder (`<name>`), a wildcard, a space, or that start with `/` (a URL) or `..` are not paths here.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOCS = sorted((ROOT / "docs").rglob("*.md")) + [ROOT / "README.md"]
EXTENSIONS = (".py", ".html", ".js", ".toml", ".yml", ".yaml", ".md", ".sh", ".txt", ".jsonl")
# Directories that are never the repository's own (environments, outputs).
NOT_TOP = {".git", ".venv", "__pycache__", "media", "staticfiles", "site", "exports", "test-results"}
FENCE = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)
SPAN = re.compile(r"`([^`\n]+)`")
NOT_A_PATH = re.compile(r"[\s<>*{}$#?=]|^/|^\.\.|://")


def top_level_directories() -> set[str]:
    return {p.name for p in ROOT.iterdir() if p.is_dir()} - NOT_TOP


def quoted_paths(text: str, top: set[str]) -> list[str]:
    """The repository paths quoted in a Markdown text, in order."""
    paths = []
    for span in SPAN.findall(FENCE.sub("", text)):
        if "/" not in span or NOT_A_PATH.search(span):
            continue
        if span.endswith(EXTENSIONS) or span.split("/", 1)[0] in top:
            paths.append(span)
    return paths


def test_every_path_the_manual_quotes_exists():
    top = top_level_directories()
    missing = {
        f"{page.relative_to(ROOT)}: {path}"
        for page in DOCS
        for path in quoted_paths(page.read_text(encoding="utf-8"), top)
        if not (ROOT / path.rstrip("/")).exists()
    }

    assert missing == set()


def test_the_map_quotes_the_modules_of_its_three_paths():
    paths = set(quoted_paths((ROOT / "docs/design/map.md").read_text(encoding="utf-8"), top_level_directories()))

    assert {
        "annotation/services/judgments.py",
        "annotation/services/assignments.py",
        "annotation/services/planned_blocks.py",
        "qc/gold.py",
        "qc/runs.py",
        "evaluation/engine.py",
    } <= paths


def test_spans_that_are_not_repository_paths_are_left_alone():
    text = """See `qc/gone.py`, `scripts/start`, `annotation/task_types/<name>/`, `/p/<slug>/report/`,
`plugin.py`, `docs/operations/*.md`, `exports/id-csqa`, `config.settings.production`, `../shared/data`.

```sh
python bench/nowhere.py
```
"""

    assert quoted_paths(text, {"qc", "scripts", "annotation", "docs"}) == ["qc/gone.py", "scripts/start"]
