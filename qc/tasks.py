"""Celery entry points of qc: ids in, load, claim, call a service (see STYLE.md).

Exports, reports and sweeps store no result (ignore_result): nothing reads one, and a kept result
makes the sender subscribe to the result backend first, which retried for ~20 s with Redis down.
"""

from __future__ import annotations

from celery import Task, shared_task

from annotation.gold import DECIDABLE
from annotation.models import Item
from qc.exports.runs import export_run_execute, export_runs_sweep
from qc.gold import gold_recompute
from qc.reports.snapshots import report_snapshot_build
from qc.task_names import BUILD_REPORT, EXPORT_GOLD, RECOMPUTE_GOLD, SWEEP_RUNS


@shared_task(bind=True, name=EXPORT_GOLD, acks_late=True, ignore_result=True, reject_on_worker_lost=True)
def export_gold(self: Task, run_id: int) -> dict | None:
    # The task id tells a redelivery of the message that holds the run from any other message.
    run = export_run_execute(run_id=run_id, task_id=self.request.id or "")
    if run is None:  # another worker has it, it is finished, or this worker lost it
        return None
    return {"run": run.pk, "status": run.status, "items": run.progress, "files": run.files}


# Sent by Celery beat every GOTONG_SWEEP_SECONDS (CELERY_BEAT_SCHEDULE); idempotent, so a late or
# repeated sweep does no harm.
@shared_task(name=SWEEP_RUNS, acks_late=True, ignore_result=True, reject_on_worker_lost=True)
def sweep_runs() -> dict[str, list[int]]:
    """Resume or fail background runs whose worker stopped."""
    exports = export_runs_sweep()
    return {"exports_requeued": exports.requeued, "exports_failed": exports.failed}


@shared_task(name=RECOMPUTE_GOLD, acks_late=True, reject_on_worker_lost=True)
def recompute_gold(project_id: int, item_ids: list[int] | None = None) -> dict[str, int]:
    """Recompute gold decisions of a project (all its decidable items, or the given ones). Idempotent."""
    qs = Item.objects.filter(project_id=project_id, status__in=DECIDABLE)
    if item_ids is not None:
        qs = qs.filter(pk__in=item_ids)
    return gold_recompute(item_ids=list(qs.values_list("pk", flat=True)))


@shared_task(name=BUILD_REPORT, acks_late=True, ignore_result=True, reject_on_worker_lost=True)
def build_report(project_id: int) -> dict[str, float | None]:
    """Build a big project's report snapshot (qc.reports.snapshots). Idempotent: a rebuild overwrites it."""
    snapshot = report_snapshot_build(project_id=project_id)
    return {"project": project_id, "seconds": snapshot.build_seconds}
