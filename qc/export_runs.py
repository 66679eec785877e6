"""Gold exports run in the background: create a run (enqueued after commit), execute it in a worker."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils import timezone

from annotation.errors import InvalidInput
from annotation.models import Item, Project
from qc.exports import EXPORTED, FORMATS, gold_export
from qc.models import ExportRun

# A run still "running" after this long lost its worker (acks_late redelivers the message).
STALE_AFTER = timedelta(hours=1)


def export_run_dir(run: ExportRun) -> Path:
    return Path(settings.MEDIA_ROOT) / run.path


@transaction.atomic
def export_run_create(*, project: Project, fmt: str, user: AbstractBaseUser | None) -> ExportRun:
    """Record an export and hand it to a worker once the transaction commits."""
    if fmt not in FORMATS:
        raise InvalidInput(
            f"Unknown format “{fmt}”; choose one of {', '.join(FORMATS)}.", field_errors={"format": ["Unknown."]}
        )
    run = ExportRun.objects.create(project=project, format=fmt, created_by=user)
    run.path = f"exports/{project.slug}/run-{run.pk}-{fmt}"
    run.save(update_fields=["path"])
    from qc.tasks import export_gold

    transaction.on_commit(lambda: export_gold.delay(run.pk))
    return run


def export_run_claim(*, run_id: int) -> bool:
    """Take the run for this worker; False when another worker has it or it is finished."""
    now = timezone.now()
    claimable = Q(status=ExportRun.Status.PENDING) | Q(
        status=ExportRun.Status.RUNNING, started_at__lt=now - STALE_AFTER
    )
    return ExportRun.objects.filter(claimable, pk=run_id).update(status=ExportRun.Status.RUNNING, started_at=now) == 1


def export_run_execute(*, run_id: int) -> ExportRun | None:
    """Claim the run and write the export, recording progress, the files, or the error."""
    if not export_run_claim(run_id=run_id):
        return None
    run = ExportRun.objects.select_related("project").get(pk=run_id)
    total = Item.objects.filter(project=run.project, status__in=EXPORTED).count()
    ExportRun.objects.filter(pk=run_id).update(total=total, progress=0)
    try:
        result = gold_export(
            project=run.project,
            fmt=run.format,
            out_dir=export_run_dir(run),
            progress=lambda n: ExportRun.objects.filter(pk=run_id).update(progress=n),
        )
    except Exception as exc:  # terminal: record it on the run for the page, and let the task fail
        ExportRun.objects.filter(pk=run_id).update(
            status=ExportRun.Status.FAILED, error=f"{type(exc).__name__}: {exc}", finished_at=timezone.now()
        )
        raise
    ExportRun.objects.filter(pk=run_id).update(
        status=ExportRun.Status.DONE,
        progress=result.items,
        files={**result.files, "readme": result.readme},
        error="",
        finished_at=timezone.now(),
    )
    run.refresh_from_db()
    return run


def export_runs_for_project(*, project: Project) -> QuerySet[ExportRun]:
    return ExportRun.objects.filter(project=project).select_related("created_by").order_by("-created_at", "-id")
