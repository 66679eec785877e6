"""A run's calls: planned once per unit and endpoint, claimed under a lease, executed under the limiter.

The drain loop (evaluation/engine.py) claims calls here and executes them in its threads; what they
brought back is written by evaluation/results.py, which also plans a kind's follow-up units here.
"""

from __future__ import annotations

import json
import logging
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.db.models import F, Q
from django.utils import timezone

from evaluation.bulk_insert import insert_rows
from evaluation.kinds import RunKind, Unit
from evaluation.llm import client as llm
from evaluation.llm.limiter import KeptSlot, LimiterUnavailable, Limits
from evaluation.models import Call, Endpoint, Run
from qc.runs import run_lock_held

logger = logging.getLogger(__name__)

PLAN_BATCH = 1000
FIRST_PLAN_STEP = 100  # units in the first committed step of a plan: the helpers' first work


def call_lease_seconds(endpoint: Endpoint) -> float:
    configured = getattr(settings, "GOTONG_LLM_LEASE_SECONDS", 0)
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
