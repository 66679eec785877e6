"""The run engine: plan a run's calls, drain them with threads under the shared limiter, finish.

The calls themselves (planning, claiming, executing one) are evaluation/calls.py; writing what they
brought back is evaluation/results.py; this module owns a run and drains it.

Who does what:
- `run_start` (Celery, queue `llm`; one message per run) *owns* the run through qc/runs.py: it claims
  it (or resumes it after a dead worker), beats from a thread, plans the calls once (bulk, idempotent
  by the unique constraint, committed in steps), sends GOTONG_LLM_HELPERS `run_help` messages as soon
  as the first step is committed, drains, and finishes the run when no call is left unfinished. A
  dead owner is replaced like a dead export: its redelivered message or the sweeper resumes the run
  (`evaluation.sweep_runs`).
- `run_help` drains beside the owner on other workers and leaves when a claim finds nothing.
- Draining: claim up to `threads` calls with one UPDATE over `SELECT ... FOR UPDATE SKIP LOCKED`
  (a call is leased: token + expiry), run them in a thread pool, each thread holding one limiter slot
  of its endpoint for the request, and write the replies in batches (one transaction per `threads`
  replies or every FLUSH_SECONDS: each transaction costs the same few queries whatever its size).
  Only this main thread touches the database.
- Exactly once: a reply is written only if the call still carries the lease token this drainer got
  (a drainer presumed dead whose lease expired writes nothing); the kind's `on_result` runs in that
  same transaction. A worker killed mid-call leaves its calls leased; after the lease they are
  claimed again. The HTTP request may then have been sent twice; the result is recorded once.
- Retries are ours (the client has max_retries=0): a retryable error (timeout, connection, 408/409,
  429, 5xx) puts the call back to pending until `next_attempt_at` (the server's Retry-After, else
  exponential backoff with jitter), up to GOTONG_LLM_MAX_ATTEMPTS; anything else fails the call.
- Our own infrastructure failing is never the model's failure: when the limiter's Redis is down the
  request is not sent, the call goes back to pending without using an attempt and is tried again
  after results.INFRA_RETRY_SECONDS, for as long as the outage lasts. The run is done only when every call
  has a reply or a failure of the endpoint's own.
- Pause stops claiming (in-flight replies are still written); cancel also marks every unfinished
  call cancelled, so late replies are dropped. Both leave the run "finished" for qc/runs.py.
"""

from __future__ import annotations

import logging
import queue
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Count, Q, Sum
from django.utils import timezone
from kombu.exceptions import OperationalError as BrokerUnavailable

from evaluation.calls import Claimed, Outcome, call_execute, call_lease_seconds, calls_claim, run_plan
from evaluation.kinds import RunKind, get_kind
from evaluation.llm import client as llm
from evaluation.llm.limiter import KeptSlot, Limits
from evaluation.models import Call, Endpoint, Run
from evaluation.results import Tally, results_write
from evaluation.task_names import RUN_HELP
from qc.runs import RunLost, run_beat_or_stop, run_fail, run_finish, run_heartbeat, run_lock_held, run_take
from qc.task_names import task_send

logger = logging.getLogger(__name__)

UNFINISHED_CALLS = (Call.Status.PENDING, Call.Status.RUNNING)
# Replies wait at most this long to be written (or until `threads` of them are in): a write costs the
# same few queries whatever its size, and writing every ~16 replies every 100 ms held 10,000 benchmark
# predictions to 0.82-0.83 of the endpoint's limit against 0.84-0.87 (bench/benchmark_runs.py).
FLUSH_SECONDS = 0.25
CLAIM_BACKOFF_SECONDS = 0.2


# --- the drain loop --------------------------------------------------------------------------------


def _threads(endpoints: dict[int, Endpoint]) -> int:
    most = max((e.max_concurrency for e in endpoints.values()), default=1)
    return max(1, min(int(getattr(settings, "GOTONG_LLM_THREADS", 32)), most))


@dataclass
class Remaining:
    ready: int
    delayed_until: Any
    leased: int

    @property
    def unfinished(self) -> int:
        return self.ready + self.leased + (1 if self.delayed_until else 0)


def _remaining(run_id: int) -> Remaining:
    now = timezone.now()
    rows = Call.objects.filter(run_id=run_id, status__in=UNFINISHED_CALLS)
    ready = rows.filter(
        Q(status=Call.Status.PENDING) & (Q(next_attempt_at__isnull=True) | Q(next_attempt_at__lte=now))
        | Q(status=Call.Status.RUNNING, lease_until__lt=now)
    ).count()
    delayed = (
        rows.filter(status=Call.Status.PENDING, next_attempt_at__gt=now)
        .order_by("next_attempt_at")
        .values_list("next_attempt_at", flat=True)
        .first()
    )
    leased = rows.filter(status=Call.Status.RUNNING, lease_until__gte=now).count()
    return Remaining(ready=ready, delayed_until=delayed, leased=leased)


def drain(*, run_id: int, owner_attempt: int | None = None) -> Tally:
    """Execute the run's calls until none is claimable (a helper) or none is unfinished (the owner,
    which then finishes the run). Returns what this drainer recorded."""
    drainer = _Drainer(run_id=run_id, owner_attempt=owner_attempt)
    with ThreadPoolExecutor(max_workers=drainer.threads, thread_name_prefix=f"llm-run-{run_id}") as pool:
        for _ in range(drainer.threads):
            pool.submit(drainer.serve)
        try:
            drainer.loop()
        finally:
            for _ in range(drainer.threads):
                drainer.work.put(None)  # every serve() returns, so the pool's shutdown does not wait forever
    return drainer.total


class _Drainer:
    """One drain of a run. Only the main thread (`loop`) touches the database: it claims calls, hands them
    to the pool's threads, and writes what they bring back; each thread runs `serve`."""

    def __init__(self, *, run_id: int, owner_attempt: int | None) -> None:
        self.run_id, self.owner_attempt = run_id, owner_attempt
        self.run = Run.objects.get(pk=run_id)
        self.kind = get_kind(self.run.kind)
        self.endpoints = {e.pk: e for e in self.run.endpoints.all()}
        self.configs = {pk: llm.EndpointConfig.of(e) for pk, e in self.endpoints.items()}
        self.limits = {
            pk: Limits(
                key=str(pk),
                max_concurrency=e.max_concurrency,
                requests_per_minute=e.requests_per_minute,
                # A request lasts at most about its timeout (the client's total deadline): a dead
                # worker's slots come back soon after that.
                lease_seconds=float(e.timeout_seconds) + 5,
            )
            for pk, e in self.endpoints.items()
        }
        self.lease = max((call_lease_seconds(e) for e in self.endpoints.values()), default=60.0)
        self.threads = _threads(self.endpoints)
        self.total = Tally()
        self.in_flight = 0
        self.finished: list[tuple[Claimed, Outcome]] = []
        self.last_flush = time.monotonic()
        # Claimed calls wait on `work` for the pool's threads; each thread runs `serve`, which keeps its
        # request slot while its next call is ready (KeptSlot) and puts (call, outcome) on `completed`.
        self.work: queue.SimpleQueue = queue.SimpleQueue()
        self.completed: queue.SimpleQueue = queue.SimpleQueue()
        # Keep more calls claimed than threads, so a thread never waits for the next claim; not many more,
        # so other workers still find work.
        self.target = self.threads + max(1, self.threads // 2)
        self.next_claim = 0.0

    def serve(self) -> None:
        kept = KeptSlot()
        try:
            while True:
                try:
                    call = self.work.get_nowait()
                except queue.Empty:
                    kept.drop()  # nothing ready for this thread: the slot goes back before it waits
                    call = self.work.get()
                if call is None:
                    return
                outcome = call_execute(
                    call,
                    self.endpoints[call.endpoint_id],
                    self.configs[call.endpoint_id],
                    self.limits[call.endpoint_id],
                    call_lease=self.lease,
                    kept=kept,
                )
                self.completed.put((call, outcome))
        finally:
            kept.drop()
            llm.close_thread_clients()

    def loop(self) -> None:
        while True:
            asked, claimed = self._claim()
            self._collect()
            if self.finished and (
                len(self.finished) >= self.threads
                or not self.in_flight
                or time.monotonic() - self.last_flush > FLUSH_SECONDS
            ):
                self._flush()
            if self.in_flight or claimed:
                continue
            if not asked:
                # The last claim came back short and its backoff has not passed: nothing was asked
                # for this time, so this is no sign that the run is drained (a helper that left
                # here did 512 of 10,000 calls while the owner did the rest).
                time.sleep(max(0.0, self.next_claim - time.monotonic()))
                continue
            self._flush()
            if self._leaves_when_idle():
                return

    def _claim(self) -> tuple[bool, list[Claimed]]:
        """Claim calls for the threads while fewer than `threads` are in flight and the backoff has passed;
        (whether a claim was asked for, what it brought)."""
        claimed: list[Claimed] = []
        now = time.monotonic()
        asked = self.in_flight < self.threads and now >= self.next_claim
        if asked:
            claimed = calls_claim(run_id=self.run_id, limit=self.target - self.in_flight, lease_seconds=self.lease)
            if len(claimed) < self.target - self.in_flight:
                self.next_claim = now + CLAIM_BACKOFF_SECONDS  # the run is (nearly) drained: ask less often
            for call in claimed:
                self.work.put(call)
            self.in_flight += len(claimed)
        return asked, claimed

    def _collect(self) -> None:
        """Take what the threads have finished, waiting a little for the first one."""
        if not self.in_flight:
            return
        try:
            item = self.completed.get(timeout=FLUSH_SECONDS / 2)
            while True:
                self.finished.append(item)
                self.in_flight -= 1
                item = self.completed.get_nowait()
        except queue.Empty:
            pass

    def _flush(self) -> None:
        if self.finished:
            tally = results_write(run=self.run, kind=self.kind, endpoints=self.endpoints, results=self.finished)
            self.total.done += tally.done
            self.total.failed += tally.failed
            self.finished = []
        self.last_flush = time.monotonic()

    def _leaves_when_idle(self) -> bool:
        """Nothing in flight and nothing claimed: done, waiting for retries, or others' leases. True when
        this drainer leaves: a helper with nothing to claim, an owner that lost, paused or cancelled the
        run, or one that has just finished it; otherwise it waits for the next call to be due."""
        state = Run.objects.filter(pk=self.run_id).values_list("status", "attempts").first()
        owner = self.owner_attempt
        if owner is None or state is None or state != (Run.Status.RUNNING, owner):
            return True
        remaining = _remaining(self.run_id)
        if remaining.unfinished == 0:
            return run_complete(run_id=self.run_id, attempt=owner, kind=self.kind)
        if remaining.ready:
            return False
        pause = 0.2
        if remaining.delayed_until is not None:
            pause = min(1.0, max(0.0, (remaining.delayed_until - timezone.now()).total_seconds()))
        time.sleep(pause)
        return False


@transaction.atomic
def run_complete(*, run_id: int, attempt: int, kind: RunKind) -> bool:
    """Mark the run done with exact counters recomputed from its calls, if every call is finished."""
    run = run_lock_held(model=Run, run_id=run_id, attempt=attempt)
    if run is None:
        return True  # not ours any more: stop
    if Call.objects.filter(run_id=run_id, status__in=UNFINISHED_CALLS).exists():
        return False
    kind.on_finish(run)
    sums = Call.objects.filter(run_id=run_id).aggregate(
        total=Count("pk"),
        done=Count("pk", filter=Q(status=Call.Status.DONE)),
        failed=Count("pk", filter=Q(status=Call.Status.FAILED)),
        prompt=Sum("prompt_tokens"),
        completion=Sum("completion_tokens"),
        cost=Sum("cost"),
    )
    run_finish(
        model=Run,
        run_id=run_id,
        attempt=attempt,
        total=sums["total"],
        progress=sums["done"] + sums["failed"],
        calls_done=sums["done"],
        calls_failed=sums["failed"],
        prompt_tokens=sums["prompt"] or 0,
        completion_tokens=sums["completion"] or 0,
        cost=sums["cost"] or Decimal(0),
    )
    logger.info(
        "llm_run.done", extra={"run_id": run_id, "done": sums["done"], "failed": sums["failed"], "attempt": attempt}
    )
    return True


# --- entry points of the tasks ---------------------------------------------------------------------


def run_execute(*, run_id: int, task_id: str) -> Run | None:
    """Own the run: claim or resume it, plan it, send helpers, drain, finish. None when this message
    has nothing to do (another worker has the run, it is finished, paused or cancelled)."""
    taken = run_take(model=Run, run_id=run_id, task_id=task_id)
    if not taken.held:
        return None
    attempt = taken.attempt
    kind_name = Run.objects.filter(pk=run_id).values_list("kind", flat=True).first()
    try:
        kind = get_kind(kind_name or "")
        with run_heartbeat(model=Run, run_id=run_id, attempt=attempt):
            if not run_plan(run_id=run_id, attempt=attempt, kind=kind, on_first_step=lambda: _send_helpers(run_id)):
                return None
            run_beat_or_stop(model=Run, run_id=run_id, attempt=attempt)
            tally = drain(run_id=run_id, owner_attempt=attempt)
    except RunLost:
        logger.info("llm_run.lost", extra={"run_id": run_id, "attempt": attempt})
        return None
    except Exception as exc:  # a kind's bug or a database failure: recorded on the run for the page
        if run_fail(model=Run, run_id=run_id, attempt=attempt, error=f"{type(exc).__name__}: {exc}"):
            raise
        return None
    run = Run.objects.get(pk=run_id)
    run.drained = tally  # what this worker recorded (the task's result, for logs)
    return run


def _send_helpers(run_id: int) -> None:
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return  # one process: the owner's threads are all there is
    for _ in range(int(getattr(settings, "GOTONG_LLM_HELPERS", 1))):
        try:
            task_send(RUN_HELP, args=[run_id])
        except BrokerUnavailable:  # helpers only speed a run up: the owner drains every call itself
            logger.warning("llm_run.helper_not_sent", extra={"run_id": run_id}, exc_info=True)
            return
