"""Writing what the requests of a run brought back: replies, retries, failures, and the run's counters.

Every write of a call is fenced by the lease token its drainer got when it claimed the call (see
evaluation/calls.py), so a reply is recorded at most once, and the kind's `on_result` runs only for
replies actually recorded, in the same transaction.

Two workers record batches at the same time. The kind first locks its rows in one fixed order
(`RunKind.lock`); what can't be ordered beforehand (two workers inserting the same new unique keys,
e.g. a generated question, in opposite orders) can still end in a PostgreSQL deadlock or
serialization error. Then the whole batch transaction was rolled back, nothing of it is written, and
it is recorded again from the start (`results_write`): the calls still carry this drainer's lease.
"""

from __future__ import annotations

import json
import logging
import random
import time
from dataclasses import dataclass
from datetime import timedelta
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.db import OperationalError, connection, transaction
from django.db.models import F
from django.utils import timezone

from evaluation.calls import Claimed, Outcome, calls_add
from evaluation.kinds import RunKind, Unit
from evaluation.llm import client as llm
from evaluation.models import Call, Endpoint, Run

logger = logging.getLogger(__name__)


# A call not sent because the limiter's Redis is down waits this long before its next try (a restarted
# Redis is back within seconds; the run's heartbeat and the calls' leases are in PostgreSQL).
INFRA_RETRY_SECONDS = 1.0


def _setting(name: str, default: Any) -> Any:
    return getattr(settings, name, default)


def retry_delay(*, attempts: int, retry_after: float | None) -> float:
    """The server's Retry-After when it gave one (capped), else exponential backoff with full jitter."""
    cap = float(_setting("GOTONG_LLM_BACKOFF_MAX_SECONDS", 60))
    if retry_after is not None:
        return min(retry_after, 5 * cap)
    base = float(_setting("GOTONG_LLM_BACKOFF_SECONDS", 1.0))
    return min(cap, base * 2 ** max(0, attempts - 1)) * random.uniform(0.5, 1.0)


# --- writing results -------------------------------------------------------------------------------


@dataclass
class Tally:
    done: int = 0
    failed: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost: Decimal = Decimal(0)


def _fenced(call: Claimed):
    return Call.objects.filter(pk=call.pk, lease_token=call.token, status=Call.Status.RUNNING)


def _done_fields(result: Any, endpoint: Endpoint, now: Any) -> dict[str, Any]:
    completion = getattr(result, "completion_tokens", 0)
    cost = endpoint.cost_of(prompt_tokens=result.prompt_tokens, completion_tokens=completion)
    if isinstance(result, llm.EmbeddingResult):
        fields = {"response": {**result.raw, "vectors": result.vectors}, "text": "", "finish_reason": ""}
    elif isinstance(result, llm.LikelihoodResult):
        # The continuation's own tokens, what the kind picks from; the echo in full stays in `response`.
        logprobs = {
            "tokens": list(result.tokens),
            "token_logprobs": list(result.token_logprobs),
            "byte_length": result.byte_length,
        }
        fields = {"response": result.raw, "text": "", "finish_reason": "", "logprobs": logprobs}
    else:
        fields = {
            "response": result.raw,
            "text": result.text,
            "finish_reason": result.finish_reason[:40],
            "logprobs": result.logprobs,
        }
    fields.update(
        status=Call.Status.DONE,
        prompt_tokens=result.prompt_tokens,
        completion_tokens=completion,
        cost=cost,
        latency_ms=result.latency_ms,
        error="",
        error_kind="",
        lease_token="",
        lease_until=None,
        finished_at=now,
    )
    return fields


def _write_done(done: list[tuple[Claimed, dict[str, Any]]]) -> set[int]:
    """Record replies, each only while its call still carries this drainer's lease token; the ids
    written. One UPDATE ... FROM (VALUES ...) on PostgreSQL: a row-per-query write was 70% of the
    owner's time at 400 calls/s (bench/llm_runs.py); other databases write row by row."""
    if not done:
        return set()
    if connection.vendor != "postgresql":
        return {call.pk for call, fields in done if _fenced(call).update(**fields)}
    table = Call._meta.db_table
    rows, params = [], []
    for call, f in done:
        rows.append("(%s::bigint, %s, %s::jsonb, %s, %s, %s::jsonb, %s::int, %s::int, %s::numeric, %s::int)")
        params += [
            call.pk,
            call.token,
            json.dumps(f["response"]),
            f["text"],
            f["finish_reason"],
            None if f.get("logprobs") is None else json.dumps(f["logprobs"]),
            f["prompt_tokens"],
            f["completion_tokens"],
            f["cost"],
            f["latency_ms"],
        ]
    sql = f"""
        UPDATE {table} AS c SET status = 'done', response = v.response, text = v.text,
            finish_reason = v.finish_reason, logprobs = v.logprobs, prompt_tokens = v.prompt_tokens,
            completion_tokens = v.completion_tokens, cost = v.cost, latency_ms = v.latency_ms,
            error = '', error_kind = '', lease_token = '', lease_until = NULL, finished_at = %s
        FROM (VALUES {", ".join(rows)}) AS v(id, token, response, text, finish_reason, logprobs,
            prompt_tokens, completion_tokens, cost, latency_ms)
        WHERE c.id = v.id AND c.lease_token = v.token AND c.status = 'running'
        RETURNING c.id
    """
    with connection.cursor() as cursor:
        cursor.execute(sql, [done[0][1]["finished_at"], *params])
        return {row[0] for row in cursor.fetchall()}


def _on_done(run: Run, kind: RunKind, call: Claimed, fields: dict[str, Any], tally: Tally) -> list[Unit]:
    tally.done += 1
    tally.prompt_tokens += fields["prompt_tokens"]
    tally.completion_tokens += fields["completion_tokens"]
    tally.cost += fields["cost"]
    saved = Call(
        pk=call.pk,
        run_id=run.pk,
        endpoint_id=call.endpoint_id,
        unit_key=call.unit_key,
        template=call.template,
        operation=call.operation,
        request=call.request,
        attempts=call.attempts,
        **{k: v for k, v in fields.items() if k not in ("lease_token", "lease_until")},
    )
    return list(kind.on_result(run, saved) or [])


def _record_error(run: Run, kind: RunKind, call: Claimed, outcome: Outcome, tally: Tally) -> None:
    if outcome.slot_timeout or outcome.limiter_down:  # never sent: not an attempt
        # Redis down: wait a moment rather than spin on claims until it is back.
        pause = timedelta(seconds=INFRA_RETRY_SECONDS) if outcome.limiter_down else None
        _fenced(call).update(
            status=Call.Status.PENDING,
            attempts=F("attempts") - 1,
            lease_token="",
            lease_until=None,
            next_attempt_at=timezone.now() + pause if pause else None,
        )
        return
    error = outcome.error
    assert error is not None
    max_attempts = int(_setting("GOTONG_LLM_MAX_ATTEMPTS", 4))
    common = {"error": error.message[:5000], "error_kind": error.kind, "latency_ms": error.latency_ms}
    if error.retryable and call.attempts < max_attempts:
        delay = retry_delay(attempts=call.attempts, retry_after=error.retry_after)
        _fenced(call).update(
            status=Call.Status.PENDING,
            next_attempt_at=timezone.now() + timedelta(seconds=delay),
            lease_token="",
            lease_until=None,
            **common,
        )
        logger.info(
            "llm_run.call_retry",
            extra={"call_id": call.pk, "attempt": call.attempts, "kind": error.kind, "delay": round(delay, 3)},
        )
        return
    response = {"status": error.status, "body": error.body} if error.status else None
    if not _fenced(call).update(
        status=Call.Status.FAILED,
        response=response,
        lease_token="",
        lease_until=None,
        finished_at=timezone.now(),
        **common,
    ):
        return
    tally.failed += 1
    logger.info("llm_run.call_failed", extra={"call_id": call.pk, "attempts": call.attempts, "kind": error.kind})
    failed = Call(
        pk=call.pk,
        run_id=run.pk,
        endpoint_id=call.endpoint_id,
        unit_key=call.unit_key,
        template=call.template,
        request=call.request,
        status=Call.Status.FAILED,
        attempts=call.attempts,
        error=common["error"],
        error_kind=error.kind,
    )
    kind.on_failed(run, failed)


RETRYABLE_SQLSTATES = ("40P01", "40001")  # deadlock_detected, serialization_failure
WRITE_ATTEMPTS = 5


def _retryable(exc: OperationalError) -> bool:
    cause = exc.__cause__
    return getattr(cause, "sqlstate", None) in RETRYABLE_SQLSTATES or getattr(cause, "pgcode", None) in (
        RETRYABLE_SQLSTATES
    )


def results_write(
    *, run: Run, kind: RunKind, endpoints: dict[int, Endpoint], results: list[tuple[Claimed, Outcome]]
) -> Tally:
    """Record a batch of finished requests and add them to the run's counters, in one transaction;
    again, from the start, when PostgreSQL aborted it for a deadlock or a serialization failure."""
    for attempt in range(1, WRITE_ATTEMPTS + 1):
        try:
            return _results_write_once(run=run, kind=kind, endpoints=endpoints, results=results)
        except OperationalError as exc:
            if not _retryable(exc) or attempt == WRITE_ATTEMPTS or connection.in_atomic_block:
                raise
            logger.warning(
                "llm_run.write_retry",
                extra={"run_id": run.pk, "attempt": attempt, "calls": len(results), "error": str(exc)[:200]},
            )
            time.sleep(random.uniform(0.01, 0.05) * attempt)
    raise AssertionError("unreachable")


@transaction.atomic
def _results_write_once(
    *, run: Run, kind: RunKind, endpoints: dict[int, Endpoint], results: list[tuple[Claimed, Outcome]]
) -> Tally:
    tally = Tally()
    kind.lock(run, sorted({call.unit_key for call, _ in results}))
    follow_ups: list[Unit] = []
    now = timezone.now()
    done = [
        (call, _done_fields(outcome.result, endpoints[call.endpoint_id], now))
        for call, outcome in results
        if outcome.result is not None
    ]
    written = _write_done(done)
    for call, fields in done:
        if call.pk in written:
            follow_ups += _on_done(run, kind, call, fields, tally)
        else:
            logger.info("llm_run.reply_dropped", extra={"call_id": call.pk, "run_id": run.pk})
    for call, outcome in results:
        if outcome.result is None:
            _record_error(run, kind, call, outcome, tally)
    kind.batch_end(run)
    counters: dict[str, Any] = {}
    if follow_ups:
        counters["total"] = calls_add(run=run, units=follow_ups)
    if tally.done or tally.failed:
        counters.update(
            progress=F("progress") + tally.done + tally.failed,
            calls_done=F("calls_done") + tally.done,
            calls_failed=F("calls_failed") + tally.failed,
            prompt_tokens=F("prompt_tokens") + tally.prompt_tokens,
            completion_tokens=F("completion_tokens") + tally.completion_tokens,
            cost=F("cost") + tally.cost,
            last_call_at=timezone.now(),
        )
    if counters:
        Run.objects.filter(pk=run.pk).update(**counters)
    return tally
