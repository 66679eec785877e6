"""The tutorial page (docs/tutorial/task-type.md) and the code agree: its table of the hooks a task type
must give is what the contract marks as required, its table of defaults names every other hook, both
tables name each hook under the part of the contract declaring it (grouped in TaskType's order), and the
listings it includes are the tutorial task type's files. A hook added to TaskType fails here until the
page says whether a task type must give it, and in which part."""

from __future__ import annotations

import re
from pathlib import Path

from annotation.task_types import required_hooks
from annotation.task_types.base import TaskType, hook_parts

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "tutorial" / "task-type.md"
FOLDER = Path(__file__).resolve().parent
NAME = re.compile(r"`([a-z_]+)`")
PART = re.compile(r"`([A-Za-z]+)`")
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
        NAME.fullmatch(row[1]).group(1): "" if row[2] == "always" else NAME.fullmatch(row[2]).group(1) for row in rows
    }

    assert len(rows) == len(given)
    assert given == required_hooks()


def test_the_defaults_table_names_every_other_hook_once():
    named = [name for row in _table("### What a task type may leave to the defaults") for name in NAME.findall(row[1])]

    assert len(named) == len(set(named))
    assert set(named) == _hooks_of_task_type() - set(required_hooks())


def _parts_named(heading: str) -> list[tuple[str, str]]:
    """(part, hook) for every hook a row of the table under `heading` names, in the table's order."""
    return [(PART.fullmatch(row[0]).group(1), name) for row in _table(heading) for name in NAME.findall(row[1])]


def test_both_tables_name_each_hook_under_its_part_grouped_in_the_contracts_order():
    parts = {name: part.__name__ for name, part in hook_parts().items()}
    order = [part.__name__ for part in TaskType.__bases__]

    for heading in ("### What a task type must give", "### What a task type may leave to the defaults"):
        named = _parts_named(heading)

        assert [(part, name) for part, name in named if parts[name] != part] == []
        assert [part for part, _ in named] == sorted((part for part, _ in named), key=order.index)


def test_the_parts_table_lists_every_part_of_the_contract_with_its_module():
    rows = _table("### The parts of the contract")

    assert [(PART.fullmatch(row[0]).group(1), row[1]) for row in rows] == [
        (part.__name__, f"`{part.__module__.rpartition('.')[2]}.py`") for part in TaskType.__bases__
    ]


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
