"""Celery entry points of qc: ids in, load, claim, call a service (see STYLE.md)."""

from __future__ import annotations

from celery import shared_task

from annotation.models import Item
from qc.gold import DECIDABLE, gold_recompute


@shared_task(name="qc.export_gold", acks_late=True, reject_on_worker_lost=True)
def export_gold(run_id: int) -> dict | None:
    from qc.export_runs import export_run_execute

    run = export_run_execute(run_id=run_id)
    if run is None:  # already taken or finished: a redelivered message does nothing
        return None
    return {"run": run.pk, "status": run.status, "items": run.progress, "files": run.files}


@shared_task(name="qc.recompute_gold", acks_late=True, reject_on_worker_lost=True)
def recompute_gold(project_id: int, item_ids: list[int] | None = None) -> dict[str, int]:
    """Recompute gold decisions of a project (all its decidable items, or the given ones). Idempotent."""
    qs = Item.objects.filter(project_id=project_id, status__in=DECIDABLE)
    if item_ids is not None:
        qs = qs.filter(pk__in=item_ids)
    return gold_recompute(item_ids=list(qs.values_list("pk", flat=True)))
