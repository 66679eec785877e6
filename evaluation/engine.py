"""The run engine: plan a run's calls, drain them with threads under the shared limiter, finish.

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

import json
import logging
import queue
import time
import uuid
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import timedelta
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Count, F, Q, Sum
from django.utils import timezone
from kombu.exceptions import OperationalError as BrokerUnavailable

from evaluation.bulk_insert import insert_rows
from evaluation.kinds import RunKind, Unit, get_kind
from evaluation.llm import client as llm
from evaluation.llm.limiter import KeptSlot, LimiterUnavailable, Limits
from evaluation.models import Call, Endpoint, Run
from evaluation.results import Tally, _setting, results_write, retry_delay  # noqa: F401  (retry_delay: API)
from qc.runs import RunLost, run_beat_or_stop, run_fail, run_finish, run_heartbeat, run_lock_held, run_take

logger = logging.getLogger(__name__)

UNFINISHED_CALLS = (Call.Status.PENDING, Call.Status.RUNNING)
# Replies wait at most this long to be written (or until `threads` of them are in): a write costs the
# same few queries whatever its size, and writing every ~16 replies every 100 ms held 10,000 benchmark
# predictions to 0.82-0.83 of the endpoint's limit against 0.84-0.87 (bench/benchmark_runs.py).
FLUSH_SECONDS = 0.25
CLAIM_BACKOFF_SECONDS = 0.2
PLAN_BATCH = 1000
FIRST_PLAN_STEP = 100  # units in the first committed step of a plan: the helpers' first work


def call_lease_seconds(endpoint: Endpoint) -> float:
    configured = _setting("GOTONG_LLM_LEASE_SECONDS", 0)
    return float(configured) if configured else 2 * float(endpoint.timeout_seconds) + 30


# --- planning --------------------------------------------------------------------------------------


def _calls_for(run: Run, units: list[Unit], endpoint_ids: list[int]) -> list[dict[str, Any]]:
    calls = []
    for unit in units:
        request = unit.request()
        for endpoint_id in unit.endpoint_ids or endpoint_ids:
            calls.append(
                {
                    "run_id": run.pk,
                    "endpoint_id": endpoint_id,
                    "unit_key": unit.key,
                    "template": unit.template,
                    "operation": unit.operation,
                    "request": request,
                }
            )
    return calls


def _insert_calls(run: Run, units: list[Unit], endpoint_ids: list[int]) -> None:
    """Insert the units' calls, PLAN_BATCH units a statement (a unit already planned is skipped: unique
    constraint)."""
    for start in range(0, len(units), PLAN_BATCH):
        insert_rows(Call, _calls_for(run, units[start : start + PLAN_BATCH], endpoint_ids), ignore_conflicts=True)


def calls_add(*, run: Run, units: list[Unit]) -> int:
    """Insert the units' calls (a unit already planned is skipped); the run's total."""
    _insert_calls(run, list(units), list(run.endpoints.order_by("pk").values_list("pk", flat=True)))
    return Call.objects.filter(run_id=run.pk).count()


def run_plan(*, run_id: int, attempt: int, kind: RunKind, on_first_step: Callable[[], None] | None = None) -> bool:
    """Create the run's calls once; False if this attempt lost the run (taken over, paused, cancelled).

    The calls are committed in steps (FIRST_PLAN_STEP units, then PLAN_BATCH at a time), each step
    under the run's lock, and `on_first_step` (the owner sends its helpers there) runs once the first
    step is committed: helpers drain the first calls while the owner plans the rest, instead of every
    worker waiting for the whole plan (0.8 s of a 10,000-call benchmark's ~19 s). A step is idempotent
    (unique constraint): an owner that dies half-way is resumed and plans again, skipping what is there.
    Only the last step sets `planned_at` and the total, and only a planned run can finish."""
    first_step_done = on_first_step or (lambda: None)
    with transaction.atomic():
        run = run_lock_held(model=Run, run_id=run_id, attempt=attempt)
        if run is None:
            return False
        if run.planned_at is not None:
            first_step_done()
            return True
    endpoint_ids = list(run.endpoints.order_by("pk").values_list("pk", flat=True))
    batch: list[Unit] = []
    step = FIRST_PLAN_STEP
    for unit in kind.units(run):
        batch.append(unit)
        if len(batch) >= step:
            if not _plan_step(run, attempt, batch, endpoint_ids):
                return False
            if step == FIRST_PLAN_STEP:
                first_step_done()
            batch, step = [], PLAN_BATCH
    with transaction.atomic():
        if not _plan_step(run, attempt, batch, endpoint_ids):
            return False
        total = Call.objects.filter(run_id=run_id).count()
        Run.objects.filter(pk=run_id).update(planned_at=timezone.now(), total=total)
    if step == FIRST_PLAN_STEP:  # the whole plan was smaller than a first step
        first_step_done()
    logger.info("llm_run.planned", extra={"run_id": run_id, "calls": total, "kind": run.kind})
    return True


@transaction.atomic
def _plan_step(run: Run, attempt: int, units: list[Unit], endpoint_ids: list[int]) -> bool:
    if run_lock_held(model=Run, run_id=run.pk, attempt=attempt) is None:
        return False
    _insert_calls(run, units, endpoint_ids)
    return True


# --- claiming and executing ------------------------------------------------------------------------


@dataclass(frozen=True)
class Claimed:
    pk: int
    endpoint_id: int
    unit_key: str
    template: str
    operation: str
    request: dict
    attempts: int
    token: str


@dataclass(frozen=True)
class Outcome:
    result: llm.ChatResult | llm.EmbeddingResult | llm.LikelihoodResult | None = None
    error: llm.LLMError | None = None
    slot_timeout: bool = False
    # Not sent because the limiter's Redis is down: not an attempt, and tried again after a pause.
    limiter_down: bool = False


def calls_claim(*, run_id: int, limit: int, lease_seconds: float) -> list[Claimed]:
    """Lease up to `limit` ready calls of a running run (pending and due, or leased and expired).
    PostgreSQL: one UPDATE ... RETURNING over SELECT ... FOR UPDATE SKIP LOCKED (three queries cost
    a claim 15 ms under load); other databases: the same in three ORM queries."""
    if limit <= 0:
        return []
    now = timezone.now()
    token = uuid.uuid4().hex
    until = now + timedelta(seconds=lease_seconds)
    if connection.vendor == "postgresql":
        calls, runs = Call._meta.db_table, Run._meta.db_table
        sql = f"""
            UPDATE {calls} SET status = 'running', lease_token = %s, lease_until = %s, attempts = attempts + 1
            WHERE id IN (
                SELECT c.id FROM {calls} c JOIN {runs} r ON r.id = c.run_id
                WHERE c.run_id = %s AND r.status = 'running' AND (
                    (c.status = 'pending' AND (c.next_attempt_at IS NULL OR c.next_attempt_at <= %s))
                    OR (c.status = 'running' AND c.lease_until < %s))
                ORDER BY c.id LIMIT %s FOR UPDATE OF c SKIP LOCKED)
            RETURNING id, endpoint_id, unit_key, template, operation, request, attempts
        """
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(sql, [token, until, run_id, now, now, limit])
            rows = cursor.fetchall()
        return [
            Claimed(
                pk,
                endpoint_id,
                key,
                template,
                op,
                request if isinstance(request, dict) else json.loads(request),
                attempts,
                token=token,
            )
            for pk, endpoint_id, key, template, op, request, attempts in sorted(rows)
        ]
    with transaction.atomic():
        ready = (
            Call.objects.filter(run_id=run_id, run__status=Run.Status.RUNNING)
            .filter(
                Q(status=Call.Status.PENDING, next_attempt_at__isnull=True)
                | Q(status=Call.Status.PENDING, next_attempt_at__lte=now)
                | Q(status=Call.Status.RUNNING, lease_until__lt=now)
            )
            .order_by("pk")
            .select_for_update(skip_locked=True, of=("self",))
            .values_list("pk", flat=True)[:limit]
        )
        ids = list(ready)
        if not ids:
            return []
        Call.objects.filter(pk__in=ids).update(
            status=Call.Status.RUNNING, lease_token=token, lease_until=until, attempts=F("attempts") + 1
        )
        rows = Call.objects.filter(pk__in=ids).values_list(
            "pk", "endpoint_id", "unit_key", "template", "operation", "request", "attempts"
        )
        return [Claimed(*row, token=token) for row in rows]


def call_execute(
    call: Claimed,
    endpoint: Endpoint,
    config: llm.EndpointConfig,
    limits: Limits,
    *,
    call_lease: float,
    kept: KeptSlot,
) -> Outcome:
    """One request under the endpoint's limiter (runs in a pool thread; no database here), in the
    thread's kept slot. Waiting for a slot gives up in time for the request to end before the call's
    lease does."""
    wait_budget = max(1.0, call_lease - config.timeout_seconds - 5)
    try:
        kept.take(limits, give_up_after=wait_budget)
        try:
            return Outcome(result=_request(call, config))
        finally:
            kept.done()
    except llm.LLMError as exc:
        return Outcome(error=exc)
    except TimeoutError:
        return Outcome(slot_timeout=True)
    except LimiterUnavailable:
        logger.warning("llm_run.limiter_unavailable", extra={"call_id": call.pk})
        return Outcome(limiter_down=True)
    except Exception as exc:  # a bug, not the endpoint's fault: fail the call, keep the run going
        logger.exception("llm_run.call_crashed", extra={"call_id": call.pk})
        return Outcome(error=llm.LLMError(f"{type(exc).__name__}: {exc}", kind="internal", retryable=False))


def _request(call: Claimed, config: llm.EndpointConfig) -> Any:
    if call.operation == Call.Operation.EMBED:
        return llm.embed(endpoint=config, inputs=call.request.get("input", []))
    if call.operation == Call.Operation.SCORE:
        return llm.score_continuation(
            endpoint=config,
            context=call.request.get("context", ""),
            continuation=call.request.get("continuation", ""),
        )
    params = call.request.get("params", {})
    if "prompt" in call.request:  # a plain completion (Unit.prompt)
        return llm.complete(
            endpoint=config,
            prompt=call.request["prompt"],
            max_tokens=params.get("max_tokens"),
            temperature=params.get("temperature"),
            stop=params.get("stop"),
            seed=params.get("seed"),
        )
    return llm.chat(
        endpoint=config,
        messages=call.request.get("messages", []),
        max_tokens=params.get("max_tokens"),
        temperature=params.get("temperature"),
        logprobs=params.get("logprobs"),
        stop=params.get("stop"),
        seed=params.get("seed"),
    )


# --- the drain loop --------------------------------------------------------------------------------


def _threads(endpoints: dict[int, Endpoint]) -> int:
    most = max((e.max_concurrency for e in endpoints.values()), default=1)
    return max(1, min(int(_setting("GOTONG_LLM_THREADS", 32)), most))


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
    run = Run.objects.get(pk=run_id)
    kind = get_kind(run.kind)
    endpoints = {e.pk: e for e in run.endpoints.all()}
    configs = {pk: llm.EndpointConfig.of(e) for pk, e in endpoints.items()}
    limits = {
        pk: Limits(
            key=str(pk),
            max_concurrency=e.max_concurrency,
            requests_per_minute=e.requests_per_minute,
            # A request lasts at most about its timeout (the client's total deadline): a dead
            # worker's slots come back soon after that.
            lease_seconds=float(e.timeout_seconds) + 5,
        )
        for pk, e in endpoints.items()
    }
    lease = max((call_lease_seconds(e) for e in endpoints.values()), default=60.0)
    threads = _threads(endpoints)
    total = Tally()
    in_flight = 0
    finished: list[tuple[Claimed, Outcome]] = []
    last_flush = time.monotonic()

    def flush() -> None:
        nonlocal finished, last_flush
        if finished:
            tally = results_write(run=run, kind=kind, endpoints=endpoints, results=finished)
            total.done += tally.done
            total.failed += tally.failed
            finished = []
        last_flush = time.monotonic()

    # Claimed calls wait on `work` for the pool's threads; each thread runs `serve`, which keeps its
    # request slot while its next call is ready (KeptSlot) and puts (call, outcome) on `completed`.
    work: queue.SimpleQueue = queue.SimpleQueue()
    completed: queue.SimpleQueue = queue.SimpleQueue()
    # Keep more calls claimed than threads, so a thread never waits for the next claim; not many more,
    # so other workers still find work.
    target = threads + max(1, threads // 2)
    next_claim = 0.0

    def serve() -> None:
        kept = KeptSlot()
        try:
            while True:
                try:
                    call = work.get_nowait()
                except queue.Empty:
                    kept.drop()  # nothing ready for this thread: the slot goes back before it waits
                    call = work.get()
                if call is None:
                    return
                outcome = call_execute(
                    call,
                    endpoints[call.endpoint_id],
                    configs[call.endpoint_id],
                    limits[call.endpoint_id],
                    call_lease=lease,
                    kept=kept,
                )
                completed.put((call, outcome))
        finally:
            kept.drop()
            llm.close_thread_clients()

    with ThreadPoolExecutor(max_workers=threads, thread_name_prefix=f"llm-run-{run_id}") as pool:
        for _ in range(threads):
            pool.submit(serve)
        try:
            while True:
                claimed: list[Claimed] = []
                now = time.monotonic()
                asked = in_flight < threads and now >= next_claim
                if asked:
                    claimed = calls_claim(run_id=run_id, limit=target - in_flight, lease_seconds=lease)
                    if len(claimed) < target - in_flight:
                        next_claim = now + CLAIM_BACKOFF_SECONDS  # the run is (nearly) drained: ask less often
                    for call in claimed:
                        work.put(call)
                    in_flight += len(claimed)
                if in_flight:
                    try:
                        item = completed.get(timeout=FLUSH_SECONDS / 2)
                        while True:
                            finished.append(item)
                            in_flight -= 1
                            item = completed.get_nowait()
                    except queue.Empty:
                        pass
                if finished and (
                    len(finished) >= threads or not in_flight or time.monotonic() - last_flush > FLUSH_SECONDS
                ):
                    flush()
                if in_flight or claimed:
                    continue
                if not asked:
                    # The last claim came back short and its backoff has not passed: nothing was asked
                    # for this time, so this is no sign that the run is drained (a helper that left
                    # here did 512 of 10,000 calls while the owner did the rest).
                    time.sleep(max(0.0, next_claim - time.monotonic()))
                    continue
                flush()
                # Nothing in flight and nothing claimed: done, waiting for retries, or others' leases.
                state = Run.objects.filter(pk=run_id).values_list("status", "attempts").first()
                holds = owner_attempt is not None and state is not None and state == (Run.Status.RUNNING, owner_attempt)
                if not holds:
                    break  # a helper with nothing to claim, or an owner that lost / paused / cancelled the run
                remaining = _remaining(run_id)
                if remaining.unfinished == 0:
                    if run_complete(run_id=run_id, attempt=owner_attempt, kind=kind):
                        break
                    continue
                if remaining.ready:
                    continue
                pause = 0.2
                if remaining.delayed_until is not None:
                    pause = min(1.0, max(0.0, (remaining.delayed_until - timezone.now()).total_seconds()))
                time.sleep(pause)
        finally:
            for _ in range(threads):
                work.put(None)  # every serve() returns, so the pool's shutdown does not wait forever
    return total


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
    from evaluation.tasks import run_help

    for _ in range(int(_setting("GOTONG_LLM_HELPERS", 1))):
        try:
            run_help.apply_async(args=[run_id])
        except BrokerUnavailable:  # helpers only speed a run up: the owner drains every call itself
            logger.warning("llm_run.helper_not_sent", extra={"run_id": run_id}, exc_info=True)
            return
