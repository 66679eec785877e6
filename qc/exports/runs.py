"""Gold exports run in the background: create a run (enqueued after commit), execute it in a worker.

A run survives its worker dying (see qc/runs.py): an attempt writes into its own staging folder and
moves the files into the run's folder only while it holds the run (row-locked), so a resumed export
starts again cleanly and a half-written file is never shown as done. Exports are idempotent, so
starting again is the whole of resuming.
"""

from __future__ import annotations

import logging
import os
import shutil
import time
import uuid
from collections.abc import Callable
from pathlib import Path

from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from annotation.errors import InvalidInput
from annotation.models import Project
from qc.exports import ExportResult
from qc.exports.run_formats import RUN_FORMATS, export_files, export_items_total
from qc.models import ExportRun
from qc.runs import (
    UNFINISHED,
    RunLost,
    RunPolicy,
    SweepReport,
    Taken,
    broker_check,
    run_beat_or_stop,
    run_claim,
    run_enqueue_or_wait,
    run_fail,
    run_finish,
    run_heartbeat,
    run_is_stale,
    run_lock_held,
    run_take,
    runs_sweep,
)
from qc.task_names import EXPORT_GOLD, task_send

logger = logging.getLogger(__name__)

STAGING_PREFIX = ".attempt-"


def export_run_dir(run: ExportRun) -> Path:
    return Path(settings.MEDIA_ROOT) / run.path


def export_run_enqueue(run_id: int, task_id: str) -> None:
    task_send(EXPORT_GOLD, args=[run_id], task_id=task_id)


@transaction.atomic
def export_run_create(*, project: Project, fmt: str, user: AbstractBaseUser | None) -> ExportRun:
    """Record an export and hand it to a worker once the transaction commits."""
    if fmt not in RUN_FORMATS:
        raise InvalidInput(
            f"Unknown format “{fmt}”; choose one of {', '.join(RUN_FORMATS)}.", field_errors={"format": ["Unknown."]}
        )
    broker_check()
    task_id = str(uuid.uuid4())
    run = ExportRun.objects.create(
        project=project, format=fmt, created_by=user, task_id=task_id, heartbeat_at=timezone.now()
    )
    run.path = f"exports/{project.slug}/run-{run.pk}-{fmt}"
    run.save(update_fields=["path"])
    transaction.on_commit(
        lambda: run_enqueue_or_wait(enqueue=export_run_enqueue, run_id=run.pk, task_id=task_id, kind="export_run")
    )
    return run


def export_run_claim(*, run_id: int, task_id: str) -> Taken:
    """One try at taking the run for the message `task_id`: pending, or running with a stale heartbeat."""
    return run_claim(model=ExportRun, run_id=run_id, task_id=task_id)


def _remove_staging(folder: Path, *, keep: Path | None = None) -> None:
    if not folder.is_dir():
        return
    for path in folder.glob(f"{STAGING_PREFIX}*"):
        if path != keep:
            shutil.rmtree(path, ignore_errors=True)


def _progress_callback(run_id: int, attempt: int) -> Callable[[int], None]:
    # Test-only: slows an export down so a test can kill its worker half-way (config/settings/test_worker.py).
    delay = getattr(settings, "GOTONG_EXPORT_TEST_DELAY_MS", 0) / 1000

    def progress(n: int) -> None:
        run_beat_or_stop(model=ExportRun, run_id=run_id, attempt=attempt, progress=n)
        if delay:
            time.sleep(delay)

    return progress


def export_run_execute(*, run_id: int, task_id: str) -> ExportRun | None:
    """Take the run (or resume it) and write the export, recording progress, the files, or the error.

    None when there is nothing to do for this message: another worker has the run, it is finished,
    or this worker lost it half-way to another attempt.
    """
    taken = run_take(model=ExportRun, run_id=run_id, task_id=task_id)
    if not taken.held:
        return None
    attempt = taken.attempt
    run = ExportRun.objects.select_related("project").get(pk=run_id)
    folder = export_run_dir(run)
    staging = folder / f"{STAGING_PREFIX}{attempt}"
    # What earlier attempts left behind is never shown; a stopped one cannot come back and use it.
    _remove_staging(folder)
    total = export_items_total(project=run.project, fmt=run.format)
    try:
        run_beat_or_stop(model=ExportRun, run_id=run_id, attempt=attempt, total=total, progress=0)
        with run_heartbeat(model=ExportRun, run_id=run_id, attempt=attempt):
            result = export_files(
                project=run.project,
                fmt=run.format,
                out_dir=staging,
                chunk_size=getattr(settings, "GOTONG_EXPORT_CHUNK_SIZE", 2000),
                progress=_progress_callback(run_id, attempt),
            )
        done = _export_run_publish(run_id=run_id, attempt=attempt, staging=staging, folder=folder, result=result)
    except RunLost:
        logger.info("export.lost", extra={"run_id": run_id, "attempt": attempt, "task_id": task_id})
        shutil.rmtree(staging, ignore_errors=True)
        return None
    except Exception as exc:  # terminal: record it on the run for the page, and let the task fail
        shutil.rmtree(staging, ignore_errors=True)
        if not run_fail(model=ExportRun, run_id=run_id, attempt=attempt, error=f"{type(exc).__name__}: {exc}"):
            logger.info("export.lost", extra={"run_id": run_id, "attempt": attempt, "task_id": task_id})
            return None
        raise
    if not done:
        shutil.rmtree(staging, ignore_errors=True)
        logger.info("export.lost", extra={"run_id": run_id, "attempt": attempt, "task_id": task_id})
        return None
    logger.info(
        "export.done", extra={"run_id": run_id, "attempt": attempt, "items": result.items, "files": result.files}
    )
    run.refresh_from_db()
    return run


@transaction.atomic
def _export_run_publish(*, run_id: int, attempt: int, staging: Path, folder: Path, result: ExportResult) -> bool:
    """Move the attempt's files into the run's folder and mark it done, only while this attempt holds
    the run: the row lock keeps another attempt and the sweeper out until the commit."""
    if run_lock_held(model=ExportRun, run_id=run_id, attempt=attempt) is None:
        return False
    for name in [*result.files.values(), *result.extra.values(), result.readme]:
        os.replace(staging / name, folder / name)
    shutil.rmtree(staging, ignore_errors=True)
    return run_finish(
        model=ExportRun,
        run_id=run_id,
        attempt=attempt,
        progress=result.items,
        files={**result.files, **result.extra, "readme": result.readme},
    )


def export_runs_sweep() -> SweepReport:
    """Resume or fail exports whose worker stopped (the beat task `qc.sweep_runs`)."""
    return runs_sweep(model=ExportRun, enqueue=export_run_enqueue)


def export_runs_sweep_shown(*, runs: list[ExportRun]) -> bool:
    """Without Redis there is no worker and no beat: exports run inside a web process, and one whose
    process died (the server stopped mid-export) is swept when a page shows it stale. True if it swept."""
    if not settings.CELERY_TASK_ALWAYS_EAGER:
        return False
    policy, now = RunPolicy.from_settings(), timezone.now()
    if not any(
        run.status in UNFINISHED and run_is_stale(last_sign=run.last_sign_at, now=now, policy=policy) for run in runs
    ):
        return False
    export_runs_sweep()
    return True


def export_runs_for_project(*, project: Project) -> QuerySet[ExportRun]:
    return ExportRun.objects.filter(project=project).select_related("created_by").order_by("-created_at", "-id")
