"""The known-answer checks' export: the project's checks in its task type's own row layout (the gold
export's, so the task type's importer reads it back), each row with its `known_answer`. Importing the
file into a project makes every row a check again (annotation.importing.engine). Checks are never in
the gold export; this file is the only way out for them.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

from annotation.models import Item, Project
from annotation.task_types import get_task_type
from qc.exports import ExportResult, gold_records
from qc.exports.formats import adds_language, export_row_with_language

KNOWN_ANSWER = "known_answer"
FILE_NAME = "checks.jsonl"
README = "README.md"
CHECKS = "checks"  # ExportRun.Format.CHECKS: the run's format, and the file's key among the run's files


def checks_count(*, project: Project) -> int:
    return Item.objects.filter(project=project, status=Item.Status.CHECK).count()


def checks_export(
    *,
    project: Project,
    out_dir: str | Path,
    chunk_size: int = 2000,
    progress: Callable[[int], None] | None = None,
) -> tuple[Path, int]:
    """Write `checks.jsonl` into out_dir (under a temporary name until complete); (its path, rows).
    Two queries per chunk of checks, plus three. `progress(n)` is called after every chunk."""
    task_type = get_task_type(project.task_type)
    adds = adds_language(task_type)
    answers = dict(
        Item.objects.filter(project=project, status=Item.Status.CHECK).values_list("pk", "known_answer").order_by()
    )
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    path, temporary = out / FILE_NAME, out / f".{FILE_NAME}.tmp"
    written = 0
    try:
        with temporary.open("w", encoding="utf-8", newline="\n") as handle:
            for record in gold_records(project=project, chunk_size=chunk_size, statuses=(Item.Status.CHECK,)):
                row = export_row_with_language(task_type, record, adds)
                row[KNOWN_ANSWER] = answers.get(record.item.item_id, "")
                handle.write(json.dumps(row, ensure_ascii=False) + "\n")
                written += 1
                if progress is not None and written % chunk_size == 0:
                    progress(written)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    os.replace(temporary, path)
    if progress is not None:
        progress(written)
    return path, written


def checks_export_run(
    *, project: Project, out_dir: str | Path, chunk_size: int = 2000, progress: Callable[[int], None] | None = None
) -> ExportResult:
    """An export run's files: `checks.jsonl` and a README.md saying what it holds and how it goes back in."""
    path, written = checks_export(project=project, out_dir=out_dir, chunk_size=chunk_size, progress=progress)
    (path.parent / README).write_text(checks_readme(project=project, rows=written), "utf-8")
    return ExportResult(out_dir=path.parent, files={CHECKS: FILE_NAME}, counts={CHECKS: written}, readme=README)


def checks_readme(*, project: Project, rows: int) -> str:
    task_type = get_task_type(project.task_type)
    return "\n".join(
        [
            f"# {project.name}: known-answer checks",
            "",
            f"`{FILE_NAME}` holds the project's {rows} known-answer check{'s' if rows != 1 else ''} (items of task "
            f"type `{task_type.name}` whose answer an admin knows), one JSON object a line, in the fields of the "
            f"gold export ({', '.join(task_type.export_fields)}) and `{KNOWN_ANSWER}`, the answer a judge is "
            "expected to give.",
            "",
            "Checks are planned into the judges' queues to measure them; they never count in the gold set, agreement "
            "or the reports, and the gold export leaves them out. Importing this file into a project (with the "
            "import format that reads the task type's gold export) makes every row a check again.",
            "",
            "The file holds the answers: keep it away from the people who judge.",
            "",
        ]
    )
