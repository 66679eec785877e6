"""What an export run writes, by its format: the gold set as JSON Lines, CSV or Parquet (qc.exports), or
the known-answer checks (qc.exports.checks), which only admins reach, as every export. The run engine
(qc.exports.runs) claims, beats, publishes and sweeps runs of every format alike."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from annotation.models import Item, Project
from qc.exports import EXPORTED, FORMATS, ExportResult, gold_export
from qc.exports.checks import CHECKS, checks_count, checks_export_run

RUN_FORMATS = (*FORMATS, CHECKS)


def export_items_total(*, project: Project, fmt: str) -> int:
    """The items a run of this format writes (its progress bar's end)."""
    if fmt == CHECKS:
        return checks_count(project=project)
    return Item.objects.filter(project=project, status__in=EXPORTED).count()


def export_files(
    *,
    project: Project,
    fmt: str,
    out_dir: str | Path,
    chunk_size: int = 2000,
    progress: Callable[[int], None] | None = None,
) -> ExportResult:
    """Write the run's files into out_dir; what was written."""
    if fmt == CHECKS:
        return checks_export_run(project=project, out_dir=out_dir, chunk_size=chunk_size, progress=progress)
    return gold_export(project=project, fmt=fmt, out_dir=out_dir, chunk_size=chunk_size, progress=progress)
