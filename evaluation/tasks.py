"""Celery entry points of evaluation: ids in, claim, call the engine (see STYLE.md).

run_start and run_help go to the `llm` queue (CELERY_TASK_ROUTES), so QC work never waits behind
LLM calls; the sweeper stays on the default queue.
"""

from __future__ import annotations

from celery import Task, shared_task

# Imported with the worker, not by its first task: the openai client's import alone takes ~0.5 s,
# which a short run would otherwise wait for (bench/llm_runs.py).
from evaluation.engine import drain, run_execute


@shared_task(bind=True, name="evaluation.run_start", acks_late=True, reject_on_worker_lost=True)
def run_start(self: Task, run_id: int) -> dict | None:
    # The task id tells a redelivery of the message that owns the run from any other message.
    run = run_execute(run_id=run_id, task_id=self.request.id or "")
    if run is None:
        return None
    drained = run.drained
    return {"run": run.pk, "status": run.status, "done": drained.done, "failed": drained.failed}


@shared_task(name="evaluation.run_help", acks_late=True, reject_on_worker_lost=True)
def run_help(run_id: int) -> dict:
    """Drain beside the owner; idempotent (a redelivered or late message finds nothing to claim)."""
    tally = drain(run_id=run_id)
    return {"run": run_id, "done": tally.done, "failed": tally.failed}


# Sent by Celery beat every GOTONG_SWEEP_SECONDS; idempotent.
@shared_task(name="evaluation.sweep_runs", acks_late=True, reject_on_worker_lost=True)
def sweep_runs() -> dict[str, list[int]]:
    from evaluation.services.runs import runs_sweep_llm

    report = runs_sweep_llm()
    return {"requeued": report.requeued, "failed": report.failed}
