"""The tutorial page (docs/tutorial/task-type.md) and the code agree: its table of the hooks a task type
must give is what the contract marks as required, its table of defaults names every other hook, and the
listings it includes are the tutorial task type's files. A hook added to TaskType fails here until the
page says whether a task type must give it."""

from __future__ import annotations

import re
from pathlib import Path

from annotation.task_types import required_hooks
from annotation.task_types.base import hook_parts

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "tutorial" / "task-type.md"
FOLDER = Path(__file__).resolve().parent
NAME = re.compile(r"`([a-z_]+)`")
SNIPPET = re.compile(r'^--8<-- "([^"]+)"$', re.MULTILINE)


def _table(heading: str) -> list[list[str]]:
    """The cells of the table right under `heading` (its header and rule left out)."""
    text = PAGE.read_text(encoding="utf-8")
    after = text[text.index(f"\n{heading}\n") + len(heading) + 2 :].lstrip("\n")
    lines = []
    for line in after.splitlines():
        if not line.startswith("|"):
            break
        lines.append([cell.strip() for cell in line.strip("|").split("|")])
    return lines[2:]


def _hooks_of_task_type() -> set[str]:
    """Every public attribute and method TaskType's parts declare."""
    return set(hook_parts())


def test_the_must_give_table_is_what_the_contract_marks_required():
    rows = _table("### What a task type must give")

    given = {
        NAME.fullmatch(row[0]).group(1): "" if row[1] == "always" else NAME.fullmatch(row[1]).group(1) for row in rows
    }

    assert len(rows) == len(given)
    assert given == required_hooks()


def test_the_defaults_table_names_every_other_hook_once():
    named = [name for row in _table("### What a task type may leave to the defaults") for name in NAME.findall(row[0])]

    assert len(named) == len(set(named))
    assert set(named) == _hooks_of_task_type() - set(required_hooks())


def test_the_page_includes_every_file_of_the_tutorial_task_type():
    included = SNIPPET.findall(PAGE.read_text(encoding="utf-8"))
    shown = {"plugin", "payload", "forms", "judging", "report", "export", "importers", "examples"}

    assert [path for path in included if not (ROOT / path).is_file()] == []
    assert {Path(p).stem for p in included if p.endswith(".py")} == shown
    assert {p.stem for p in FOLDER.glob("*.py")} - shown == {
        "__init__",
        "world",
        "test_sentiment",
        "test_tutorial_page",
    }
