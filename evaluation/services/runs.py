"""Runs: create (enqueued after commit), pause, resume, cancel, sweep. The engine is evaluation/engine.py.

State machine (Run.status): pending -> running -> done | failed; pending/running -> paused -> pending
(resume); pending/running/paused -> cancelled. Each transition locks the row, checks the state and
refuses an illegal one with IllegalTransition. Resuming resets `attempts`: attempts count workers lost
since the run last started, so pausing does not use up the sweeper's max_attempts.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Sequence
from typing import Any

from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from annotation.errors import IllegalTransition, InvalidInput
from annotation.models import Project
from evaluation.kinds import get_kind
from evaluation.models import Call, Endpoint, Run
from evaluation.task_names import RUN_START
from qc.runs import RunPolicy, SweepReport, broker_check, run_enqueue_or_wait, run_is_stale, runs_sweep
from qc.task_names import task_send

logger = logging.getLogger(__name__)


def run_enqueue(run_id: int, task_id: str) -> None:
    task_send(RUN_START, args=[run_id], task_id=task_id)


def _lock(run: Run) -> Run:
    return Run.objects.select_for_update().get(pk=run.pk)


@transaction.atomic
def run_create(
    *,
    kind: str,
    endpoints: Sequence[Endpoint],
    parameters: dict[str, Any],
    project: Project | None = None,
    user: AbstractBaseUser | None = None,
) -> Run:
    """Record a run and hand it to a worker (queue `llm`) once the transaction commits."""
    run_kind = get_kind(kind)
    if not endpoints:
        raise InvalidInput(_("Choose at least one endpoint."), field_errors={"endpoint": [_("Required.")]})
    cleaned = run_kind.clean_parameters(parameters, project=project)
    run_kind.preflight(cleaned, endpoints=list(endpoints))
    broker_check()
    task_id = str(uuid.uuid4())
    run = Run.objects.create(
        kind=kind,
        project=project,
        parameters=cleaned,
        created_by=user,
        task_id=task_id,
        heartbeat_at=timezone.now(),
    )
    run.endpoints.set(endpoints)
    logger.info("llm_run.created", extra={"run_id": run.pk, "kind": kind, "project": project and project.slug})
    transaction.on_commit(
        lambda: run_enqueue_or_wait(enqueue=run_enqueue, run_id=run.pk, task_id=task_id, kind="llm_run")
    )
    return run


@transaction.atomic
def run_pause(*, run: Run) -> Run:
    locked = _lock(run)
    if locked.status not in (Run.Status.PENDING, Run.Status.RUNNING):
        raise IllegalTransition(
            _("A %(status)s run cannot be paused.") % {"status": locked.get_status_display().lower()}
        )
    locked.status = Run.Status.PAUSED
    locked.save(update_fields=["status"])
    logger.info("llm_run.paused", extra={"run_id": run.pk})
    return locked


@transaction.atomic
def run_resume(*, run: Run) -> Run:
    locked = _lock(run)
    if locked.status != Run.Status.PAUSED:
        raise IllegalTransition(
            _("Only a paused run can be resumed; this one is %(status)s.")
            % {"status": locked.get_status_display().lower()}
        )
    broker_check()
    task_id = str(uuid.uuid4())
    locked.status = Run.Status.PENDING
    locked.attempts = 0
    locked.task_id = task_id
    locked.heartbeat_at = timezone.now()
    locked.save(update_fields=["status", "attempts", "task_id", "heartbeat_at"])
    logger.info("llm_run.resumed", extra={"run_id": run.pk})
    transaction.on_commit(
        lambda: run_enqueue_or_wait(enqueue=run_enqueue, run_id=locked.pk, task_id=task_id, kind="llm_run")
    )
    return locked


@transaction.atomic
def run_cancel(*, run: Run) -> Run:
    """Stop for good: unfinished calls are cancelled (a reply arriving later is dropped)."""
    locked = _lock(run)
    if locked.status not in (Run.Status.PENDING, Run.Status.RUNNING, Run.Status.PAUSED):
        raise IllegalTransition(
            _("A %(status)s run cannot be cancelled.") % {"status": locked.get_status_display().lower()}
        )
    now = timezone.now()
    cancelled = Call.objects.filter(run=locked, status__in=(Call.Status.PENDING, Call.Status.RUNNING)).update(
        status=Call.Status.CANCELLED, lease_token="", lease_until=None, finished_at=now
    )
    locked.status = Run.Status.CANCELLED
    locked.finished_at = now
    locked.save(update_fields=["status", "finished_at"])
    logger.info("llm_run.cancelled", extra={"run_id": run.pk, "calls_cancelled": cancelled})
    return locked


def runs_sweep_llm() -> SweepReport:
    """Resume or fail LLM runs whose owning worker stopped (beat task `evaluation.sweep_runs`)."""
    return runs_sweep(model=Run, enqueue=run_enqueue)


def runs_sweep_shown(*, runs: list[Run]) -> bool:
    """Without Redis there is no beat: a run whose process died is swept when a page shows it stale."""
    if not settings.CELERY_TASK_ALWAYS_EAGER:
        return False
    policy, now = RunPolicy.from_settings(), timezone.now()
    if not any(run.is_active and run_is_stale(last_sign=run.last_sign_at, now=now, policy=policy) for run in runs):
        return False
    runs_sweep_llm()
    return True
