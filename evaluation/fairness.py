"""Model runs share the llm workers between projects: a project holds at most GOTONG_LLM_PROJECT_SLOTS
of their pool processes at once (run owners and helpers together), so one project's queue of runs
cannot keep another project's run from starting.

The count lives in Redis, in the endpoints' limiter (evaluation/llm/limiter.py) under the key
`project-<id>`: a task takes a slot before it drains and gives it back when it ends; a thread extends
the slot's lease while the task works, so a killed worker's slots come back after one lease
(GOTONG_RUN_STALE_SECONDS, when its run is found stale anyway). Over the share, a run's owner message
goes back to the queue (a Celery retry after DEFER_SECONDS; the run stays pending with a fresh sign of
life, so the sweeper leaves it alone), and a helper just leaves: the owner drains every call anyway.
Runs of other projects queued behind take the free processes meanwhile.

Without a broker (tasks run in the process) there is nothing to share. With Redis unreachable the
share is not enforced: a run never waits on this bookkeeping.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import uuid
from collections.abc import Iterator
from contextlib import contextmanager

from django.conf import settings
from django.utils import timezone

from evaluation.llm.limiter import LimiterUnavailable, Limits, get_limiter
from evaluation.models import Run

logger = logging.getLogger(__name__)

DEFER_SECONDS = 2.0


def _project_limits(run_id: int) -> Limits:
    project_id = Run.objects.filter(pk=run_id).values_list("project_id", flat=True).first()
    return Limits(
        key=f"project-{project_id or 'none'}",
        max_concurrency=int(settings.GOTONG_LLM_PROJECT_SLOTS),
        lease_seconds=float(settings.GOTONG_RUN_STALE_SECONDS),
    )


@contextmanager
def project_slot(*, run_id: int) -> Iterator[bool]:
    """Hold one of the run's project's worker slots while the body works; yields False (and holds
    nothing) when the project already holds its share."""
    if settings.CELERY_TASK_ALWAYS_EAGER or int(settings.GOTONG_LLM_PROJECT_SLOTS) <= 0:
        yield True
        return
    limits, limiter, token = _project_limits(run_id), get_limiter(), uuid.uuid4().hex
    try:
        taken = limiter.try_acquire(limits, token) == 0
    except LimiterUnavailable:
        logger.warning("llm_run.share_unknown", extra={"run_id": run_id}, exc_info=True)
        taken = None
    if not taken:
        yield taken is None
        return
    stop = threading.Event()

    def keep() -> None:
        while not stop.wait(limits.lease_seconds / 3):
            # Redis down, or back empty after a restart: the share is not enforced meanwhile.
            with contextlib.suppress(LimiterUnavailable):
                limiter.refresh(limits, token)

    keeper = threading.Thread(target=keep, name=f"llm-run-{run_id}-share", daemon=True)
    keeper.start()
    try:
        yield True
    finally:
        stop.set()
        keeper.join()
        with contextlib.suppress(LimiterUnavailable):  # else its lease expires
            limiter.release(limits, token)


def run_wait_turn(*, run_id: int) -> bool:
    """A sign of life for a pending run whose project holds its share: the sweeper does not send it
    again while its own message waits its turn. False when the run has nothing left to start (done,
    failed, paused, cancelled): the message is dropped."""
    Run.objects.filter(pk=run_id, status=Run.Status.PENDING).update(heartbeat_at=timezone.now())
    return Run.objects.filter(pk=run_id, status__in=(Run.Status.PENDING, Run.Status.RUNNING)).exists()
