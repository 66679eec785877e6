"""Background runs that outlive a dying worker: claim, heartbeat, finish, sweep.

Any model derived from `qc.models.BackgroundRun` (gold exports now, LLM runs later) uses these:
- A worker claims a run with a conditional update on (status, attempts) and gets an attempt number.
  Every later write of that worker is fenced by it: a worker that lost the run (its heartbeat went
  stale and another took over) can neither report progress, nor finish or fail the run.
- The worker beats with every progress update and, from a thread, at least every
  GOTONG_RUN_HEARTBEAT_SECONDS. A run is stale when its last sign of life is older than
  GOTONG_RUN_STALE_SECONDS.
- The sweeper (Celery beat, every GOTONG_SWEEP_SECONDS) puts a stale running run back to pending
  with a new message, sends a new message for a pending run whose message seems lost, and fails a
  run whose worker stopped GOTONG_RUN_MAX_ATTEMPTS times.
- A redelivered message (its task id is the run's) finding its run still running waits for the
  heartbeat: if it stops, the execution that took the message died and the message takes the run
  over; if it moves on, that execution is alive (e.g. Redis' visibility timeout resent a long task)
  and the message returns.
"""

from __future__ import annotations

import logging
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from enum import StrEnum
from typing import Any

from celery import current_app
from django.conf import settings
from django.db import DatabaseError, connections, models, transaction
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.translation import gettext as _
from kombu.exceptions import OperationalError as BrokerUnavailable

from annotation.errors import ServiceUnavailable
from qc.models import BackgroundRun

logger = logging.getLogger(__name__)

Status = BackgroundRun.Status
UNFINISHED = (Status.PENDING, Status.RUNNING)


class RunLost(Exception):
    """This worker no longer holds the run: another attempt took it over, or the sweeper failed it."""


@dataclass(frozen=True)
class RunPolicy:
    heartbeat: timedelta
    stale_after: timedelta
    max_attempts: int

    @classmethod
    def from_settings(cls) -> RunPolicy:
        return cls(
            heartbeat=timedelta(seconds=settings.GOTONG_RUN_HEARTBEAT_SECONDS),
            stale_after=timedelta(seconds=settings.GOTONG_RUN_STALE_SECONDS),
            max_attempts=settings.GOTONG_RUN_MAX_ATTEMPTS,
        )


# --- decisions (pure) ------------------------------------------------------------------------------


class Claim(StrEnum):
    CLAIM = "claim"  # pending, never run: start it
    RESUME = "resume"  # pending again after a stopped worker, or running with a stale heartbeat
    OWNED = "owned"  # running, heartbeat fresh, and this message is the one that holds it
    BUSY = "busy"  # running with a fresh heartbeat: another worker has it
    FINISHED = "finished"  # done or failed (or gone): nothing to do
    EXHAUSTED = "exhausted"  # its worker stopped max_attempts times: fail it


class Sweep(StrEnum):
    LEAVE = "leave"
    REQUEUE = "requeue"
    FAIL = "fail"


def run_is_stale(*, last_sign: datetime, now: datetime, policy: RunPolicy) -> bool:
    return last_sign < now - policy.stale_after


def run_claim_decision(
    *,
    status: str,
    attempts: int,
    last_sign: datetime,
    owner_task_id: str,
    task_id: str,
    now: datetime,
    policy: RunPolicy,
) -> Claim:
    """What a worker holding the message `task_id` may do with a run in this state."""
    if status not in UNFINISHED:
        return Claim.FINISHED
    if attempts >= policy.max_attempts and (
        status == Status.PENDING or run_is_stale(last_sign=last_sign, now=now, policy=policy)
    ):
        return Claim.EXHAUSTED
    if status == Status.PENDING:
        return Claim.RESUME if attempts else Claim.CLAIM
    if run_is_stale(last_sign=last_sign, now=now, policy=policy):
        return Claim.RESUME
    return Claim.OWNED if task_id and task_id == owner_task_id else Claim.BUSY


def run_sweep_decision(*, status: str, attempts: int, last_sign: datetime, now: datetime, policy: RunPolicy) -> Sweep:
    """A stale run is sent again (a running one goes back to pending), or failed past max_attempts."""
    if status not in UNFINISHED or not run_is_stale(last_sign=last_sign, now=now, policy=policy):
        return Sweep.LEAVE
    return Sweep.FAIL if attempts >= policy.max_attempts else Sweep.REQUEUE


def run_stopped_reason(*, attempts: int, progress: int, total: int | None) -> str:
    times = "once" if attempts == 1 else f"{attempts} times"
    done = f"{progress}/{total}" if total is not None else str(progress)
    return f"The worker stopped {times}; last progress {done}."


# --- handing a run to a worker --------------------------------------------------------------------


def broker_check() -> None:
    """Refuse to start background work while the broker is unreachable: ServiceUnavailable (503) at
    once, before any row is written, instead of a run that no worker will hear of. Without a broker
    (tasks run in the process) there is nothing to check. A broker lost between this check and the
    hand-off leaves the run pending: `run_enqueue_or_wait` logs it and the sweeper sends it later."""
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return
    try:
        with current_app.connection_for_write() as broker:
            broker.ensure_connection(max_retries=0, timeout=settings.GOTONG_BROKER_CHECK_SECONDS)
    except (BrokerUnavailable, OSError) as exc:
        logger.warning("broker.unavailable", extra={"error": str(exc)[:200]})
        raise ServiceUnavailable(
            _("The task queue is unreachable, so nothing was started. Please try again in a minute.")
        ) from exc


def run_enqueue_or_wait(*, enqueue: Callable[[int, str], None], run_id: int, task_id: str, kind: str) -> None:
    """Send a committed run's message; if the broker went away since `broker_check`, the run stays
    pending (shown as queued) and the sweeper sends it once its last sign of life is stale."""
    try:
        enqueue(run_id, task_id)
    except BrokerUnavailable:
        logger.warning(f"{kind}.not_sent", extra={"run_id": run_id, "task_id": task_id}, exc_info=True)


# --- claiming --------------------------------------------------------------------------------------

_STATE = ("pk", "status", "attempts", "heartbeat_at", "task_id", "progress", "total", "last_sign")


def _last_sign() -> Coalesce:
    # BackgroundRun.last_sign_at in SQL.
    return Coalesce("heartbeat_at", "started_at", "created_at")


@dataclass(frozen=True)
class Taken:
    decision: Claim
    attempt: int = 0  # the fencing token of this worker, when it claimed or resumed the run
    last_sign: datetime | None = None

    @property
    def held(self) -> bool:
        return self.decision in (Claim.CLAIM, Claim.RESUME)


def run_claim(*, model: type[BackgroundRun], run_id: int, task_id: str, policy: RunPolicy | None = None) -> Taken:
    """One try at taking the run for the message `task_id`; acts only if its conditional update wins."""
    policy = policy or RunPolicy.from_settings()
    now = timezone.now()
    row = model.objects.filter(pk=run_id).annotate(last_sign=_last_sign()).values(*_STATE).first()
    if row is None:
        return Taken(Claim.FINISHED)
    decision = run_claim_decision(
        status=row["status"],
        attempts=row["attempts"],
        last_sign=row["last_sign"],
        owner_task_id=row["task_id"],
        task_id=task_id,
        now=now,
        policy=policy,
    )
    kind = model.run_kind
    if decision == Claim.EXHAUSTED:
        _give_up(model=model, row=row, now=now)
        return Taken(decision)
    if decision not in (Claim.CLAIM, Claim.RESUME):
        return Taken(decision, last_sign=row["last_sign"])
    attempt = row["attempts"] + 1
    # Compare-and-set on what was read: a run that beat (or was claimed or swept) meanwhile is left alone.
    won = model.objects.filter(
        pk=run_id, status=row["status"], attempts=row["attempts"], heartbeat_at=row["heartbeat_at"]
    ).update(
        status=Status.RUNNING,
        attempts=attempt,
        heartbeat_at=now,
        task_id=task_id,
        started_at=Coalesce("started_at", models.Value(now, output_field=models.DateTimeField())),
    )
    if not won:
        return Taken(Claim.BUSY, last_sign=row["last_sign"])
    event = "claimed" if decision == Claim.CLAIM else "resumed"
    logger.info(
        f"{kind}.{event}",
        extra={
            "run_id": run_id,
            "attempt": attempt,
            "task_id": task_id,
            "previous_status": row["status"],
            "previous_progress": row["progress"],
            "total": row["total"],
        },
    )
    return Taken(decision, attempt=attempt, last_sign=now)


def run_take(
    *,
    model: type[BackgroundRun],
    run_id: int,
    task_id: str,
    policy: RunPolicy | None = None,
    sleep: Callable[[float], None] = time.sleep,
) -> Taken:
    """Claim the run; a redelivered message whose run still looks alive first watches the heartbeat."""
    policy = policy or RunPolicy.from_settings()
    taken = run_claim(model=model, run_id=run_id, task_id=task_id, policy=policy)
    if taken.decision != Claim.OWNED:
        return taken
    # The execution that took this message before is dead (its pool process was killed) or, rarely,
    # still alive (the broker resent a long task). Only its heartbeat tells: a dead one's goes stale
    # within stale_after, a live one's moves within `heartbeat`.
    first_sign = taken.last_sign
    logger.info(f"{model.run_kind}.redelivered", extra={"run_id": run_id, "task_id": task_id, "last_sign": first_sign})
    poll = min(1.0, policy.heartbeat.total_seconds() / 2)
    deadline = time.monotonic() + (policy.stale_after + policy.heartbeat).total_seconds()
    while time.monotonic() < deadline:
        sleep(poll)
        taken = run_claim(model=model, run_id=run_id, task_id=task_id, policy=policy)
        if taken.decision != Claim.OWNED:
            return taken
        if taken.last_sign > first_sign:  # it beat again: alive
            return Taken(Claim.BUSY, last_sign=taken.last_sign)
    return Taken(Claim.BUSY, last_sign=first_sign)


# --- while holding the run: every write is fenced by the attempt --------------------------------


def _held(model: type[BackgroundRun], run_id: int, attempt: int) -> models.QuerySet:
    return model.objects.filter(pk=run_id, status=Status.RUNNING, attempts=attempt)


def run_beat(*, model: type[BackgroundRun], run_id: int, attempt: int, **fields: Any) -> bool:
    """Record a sign of life (and e.g. `progress=`); False when this worker no longer holds the run."""
    return _held(model, run_id, attempt).update(heartbeat_at=timezone.now(), **fields) == 1


def run_beat_or_stop(*, model: type[BackgroundRun], run_id: int, attempt: int, **fields: Any) -> None:
    if not run_beat(model=model, run_id=run_id, attempt=attempt, **fields):
        raise RunLost(f"{model.run_kind} {run_id}: attempt {attempt} no longer holds the run")


def run_lock_held(*, model: type[BackgroundRun], run_id: int, attempt: int) -> BackgroundRun | None:
    """The run, row-locked, if this attempt still holds it (call inside a transaction): no other
    attempt can claim it, and the sweeper cannot fail it, until the caller commits."""
    return _held(model, run_id, attempt).select_for_update().first()


def run_finish(*, model: type[BackgroundRun], run_id: int, attempt: int, **fields: Any) -> bool:
    now = timezone.now()
    return (
        _held(model, run_id, attempt).update(status=Status.DONE, error="", heartbeat_at=now, finished_at=now, **fields)
        == 1
    )


def run_fail(*, model: type[BackgroundRun], run_id: int, attempt: int, error: str) -> bool:
    """Record a terminal error; False (and nothing written) when this attempt no longer holds the run."""
    failed = _held(model, run_id, attempt).update(status=Status.FAILED, error=error, finished_at=timezone.now()) == 1
    if failed:
        logger.info(f"{model.run_kind}.failed", extra={"run_id": run_id, "attempt": attempt, "reason": error})
    return failed


@contextmanager
def run_heartbeat(
    *, model: type[BackgroundRun], run_id: int, attempt: int, policy: RunPolicy | None = None
) -> Iterator[None]:
    """Beat from a thread every `policy.heartbeat` while the body works, even when it makes no progress
    (a slow query, a file being closed, an LLM call). The thread stops beating once the run is lost;
    the body notices at its next fenced write."""
    policy = policy or RunPolicy.from_settings()
    stop = threading.Event()

    def beat() -> None:
        try:
            while not stop.wait(policy.heartbeat.total_seconds()):
                try:
                    if not run_beat(model=model, run_id=run_id, attempt=attempt):
                        return
                except DatabaseError:  # transient: the next beat tries again, staleness allows for some
                    logger.warning(f"{model.run_kind}.beat_failed", extra={"run_id": run_id}, exc_info=True)
        finally:
            connections.close_all()  # this thread's own connections

    thread = threading.Thread(target=beat, name=f"{model.run_kind}-{run_id}-heartbeat", daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()


# --- the sweeper -----------------------------------------------------------------------------------


@dataclass
class SweepReport:
    requeued: list[int] = field(default_factory=list)
    failed: list[int] = field(default_factory=list)


def _give_up(*, model: type[BackgroundRun], row: dict, now: datetime) -> bool:
    reason = run_stopped_reason(attempts=row["attempts"], progress=row["progress"], total=row["total"])
    given_up = (
        model.objects.filter(
            pk=row["pk"], status=row["status"], attempts=row["attempts"], heartbeat_at=row["heartbeat_at"]
        ).update(status=Status.FAILED, error=reason, finished_at=now)
        == 1
    )
    if given_up:
        logger.info(
            f"{model.run_kind}.failed", extra={"run_id": row["pk"], "attempt": row["attempts"], "reason": reason}
        )
    return given_up


@transaction.atomic
def runs_sweep(
    *,
    model: type[BackgroundRun],
    enqueue: Callable[[int, str], None],
    policy: RunPolicy | None = None,
) -> SweepReport:
    """Send every stale unfinished run again, or fail it past max_attempts. `enqueue(run_id, task_id)`
    is called after commit; the run already names the new task id, so that message resumes it."""
    policy = policy or RunPolicy.from_settings()
    now = timezone.now()
    report = SweepReport()
    stale = (
        model.objects.filter(status__in=UNFINISHED)
        .annotate(last_sign=_last_sign())
        .filter(last_sign__lt=now - policy.stale_after)
        .order_by("pk")
        .values(*_STATE)
    )
    for row in stale:
        action = run_sweep_decision(
            status=row["status"], attempts=row["attempts"], last_sign=row["last_sign"], now=now, policy=policy
        )
        if action == Sweep.FAIL:
            if _give_up(model=model, row=row, now=now):
                report.failed.append(row["pk"])
        elif action == Sweep.REQUEUE:
            task_id = str(uuid.uuid4())
            # Back to pending with a fresh sign of life: the next sweep leaves it alone while the new
            # message waits for a worker, and a worker that was only slow finds its run lost.
            requeued = model.objects.filter(
                pk=row["pk"], status=row["status"], attempts=row["attempts"], heartbeat_at=row["heartbeat_at"]
            ).update(status=Status.PENDING, heartbeat_at=now, task_id=task_id)
            if requeued:
                report.requeued.append(row["pk"])
                logger.info(
                    f"{model.run_kind}.swept",
                    extra={
                        "run_id": row["pk"],
                        "previous_status": row["status"],
                        "attempts": row["attempts"],
                        "progress": row["progress"],
                        "total": row["total"],
                        "last_sign": row["last_sign"],
                        "task_id": task_id,
                    },
                )
                transaction.on_commit(lambda pk=row["pk"], tid=task_id: enqueue(pk, tid))
    return report
