"""No core module, template or static file names a task type: protocols live in their own folders.

Every registered task type's name is searched (whole word, any case) in the core's Python modules,
templates and static files. Allowed: the task types' own folders (annotation/task_types/<name>/,
templates/**/task_types/<name>/, static/**/task_types/<name>/), migrations, and the two alias commands
kept for scripts (import_csqa, csqa_report: named after the first task type on purpose).
"""

from __future__ import annotations

import re
from pathlib import Path

from django.conf import settings

from annotation.task_types import registered_task_types

ROOT = Path(settings.BASE_DIR)
CORE = ("annotation", "qc", "evaluation", "config", "templates", "static")
SUFFIXES = {".py", ".html", ".js", ".css", ".txt", ".md"}
ALIAS_COMMANDS = {
    "annotation/management/commands/import_csqa.py",
    "qc/management/commands/csqa_report.py",
}
# Hits in files being cleaned in another change, left for it (path -> reason); remove an entry once the
# file is clean (the test then fails if the entry is stale, so the list can only shrink).
PENDING: dict[str, str] = {}


def _allowed(rel: str, names: list[str]) -> bool:
    parts = rel.split("/")
    if "migrations" in parts or rel in ALIAS_COMMANDS or "__pycache__" in parts:
        return True
    return any(part == "task_types" and i + 1 < len(parts) and parts[i + 1] in names for i, part in enumerate(parts))


def _hits() -> dict[str, list[str]]:
    names = [tt.name for tt in registered_task_types()]
    pattern = re.compile(r"\b(" + "|".join(re.escape(n) for n in names) + r")\b", re.IGNORECASE)
    hits: dict[str, list[str]] = {}
    for top in CORE:
        for path in sorted((ROOT / top).rglob("*")):
            rel = path.relative_to(ROOT).as_posix()
            if not path.is_file() or path.suffix not in SUFFIXES or _allowed(rel, names):
                continue
            if "vendor" in path.parts:
                continue
            for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
                if pattern.search(line):
                    hits.setdefault(rel, []).append(f"{rel}:{number}: {line.strip()}")
    return hits


def test_core_files_name_no_task_type():
    hits = _hits()

    unexpected = [line for rel, lines in sorted(hits.items()) if rel not in PENDING for line in lines]
    assert unexpected == [], "Core files name a task type:\n" + "\n".join(unexpected)
    stale = sorted(set(PENDING) - set(hits))
    assert stale == [], f"Clean now, remove from PENDING: {stale}"
