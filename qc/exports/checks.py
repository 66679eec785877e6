"""The known-answer checks' export: the project's checks in its task type's own row layout (the gold
export's, so the task type's importer reads it back), each row with its `known_answer`. Importing the
file into a project makes every row a check again (annotation.importing.engine). Checks are never in
the gold export; this file is the only way out for them.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from annotation.models import Item, Project
from annotation.task_types import get_task_type
from qc.exports import gold_records
from qc.exports.formats import adds_language, export_row_with_language

KNOWN_ANSWER = "known_answer"
FILE_NAME = "checks.jsonl"


def checks_export(*, project: Project, out_dir: str | Path, chunk_size: int = 2000) -> tuple[Path, int]:
    """Write `checks.jsonl` into out_dir (under a temporary name until complete); (its path, rows).
    Two queries per chunk of checks, plus three."""
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
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    os.replace(temporary, path)
    return path, written
