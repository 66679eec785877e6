"""Celery entry points of evaluation: ids in, claim, call the engine (see STYLE.md).

run_start and run_help go to the `llm` queue (CELERY_TASK_ROUTES), so QC work never waits behind
LLM calls; the sweeper stays on the default queue. A model run of a project over its share of the
llm workers waits its turn (evaluation/fairness.py).

No task stores a result (ignore_result): nothing reads one, the worker's log has it, and sending a
task whose result is kept first subscribes to the result backend, which retried for ~20 s when Redis
was down before the sender heard of it.
"""

from __future__ import annotations

from celery import Task, shared_task

# Imported with the worker, not by its first task: the openai client's import alone takes ~0.5 s,
# which a short run would otherwise wait for (bench/llm_runs.py).
from evaluation.engine import drain, run_execute
from evaluation.fairness import DEFER_SECONDS, project_slot, run_wait_turn
from evaluation.services.runs import runs_sweep_llm
from evaluation.task_names import RUN_HELP, RUN_START, SWEEP_RUNS


@shared_task(bind=True, name=RUN_START, acks_late=True, ignore_result=True, reject_on_worker_lost=True)
def run_start(self: Task, run_id: int) -> dict | None:
    with project_slot(run_id=run_id) as held:
        if not held:  # the project holds its share of the llm workers: back to the queue, its turn comes
            if run_wait_turn(run_id=run_id):
                raise self.retry(countdown=DEFER_SECONDS, max_retries=None)
            return None
        # The task id tells a redelivery of the message that owns the run from any other message.
        run = run_execute(run_id=run_id, task_id=self.request.id or "")
    if run is None:
        return None
    drained = run.drained
    return {"run": run.pk, "status": run.status, "done": drained.done, "failed": drained.failed}


@shared_task(name=RUN_HELP, acks_late=True, ignore_result=True, reject_on_worker_lost=True)
def run_help(run_id: int) -> dict:
    """Drain beside the owner; idempotent (a redelivered or late message finds nothing to claim). Over
    the project's share of the llm workers it leaves at once: the owner drains every call anyway."""
    with project_slot(run_id=run_id) as held:
        tally = drain(run_id=run_id) if held else None
    if tally is None:
        return {"run": run_id, "done": 0, "failed": 0, "over_share": True}
    return {"run": run_id, "done": tally.done, "failed": tally.failed}


# Sent by Celery beat every GOTONG_SWEEP_SECONDS; idempotent.
@shared_task(name=SWEEP_RUNS, acks_late=True, ignore_result=True, reject_on_worker_lost=True)
def sweep_runs() -> dict[str, list[int]]:
    report = runs_sweep_llm()
    return {"requeued": report.requeued, "failed": report.failed}
