"""Permission-scoped reads of export runs: a run of another project is a 404."""

from __future__ import annotations

from pathlib import Path

from django.http import Http404

from annotation.models import Project
from qc.exports.runs import export_run_dir
from qc.models import ExportRun


def export_run_for_project(*, project: Project, run_id: int) -> ExportRun:
    run = ExportRun.objects.select_related("created_by").filter(project=project, pk=run_id).first()
    if run is None:
        raise Http404("No such export.")
    return run


def export_file_path(*, run: ExportRun, name: str) -> Path:
    """The path of one file a finished run wrote; 404 for anything else (no path tricks possible:
    only names the run recorded are served, from the run's own directory)."""
    if run.status != ExportRun.Status.DONE or name not in set((run.files or {}).values()):
        raise Http404("No such file.")
    folder = export_run_dir(run).resolve()
    path = (folder / name).resolve()
    if path.parent != folder or not path.is_file():
        raise Http404("No such file.")
    return path
