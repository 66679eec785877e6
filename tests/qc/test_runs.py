"""Background runs' decisions (qc/runs.py), without a database: who may take a run, what the sweeper does."""

from datetime import UTC, datetime, timedelta

import pytest

from qc.runs import Claim, RunPolicy, Sweep, run_claim_decision, run_stopped_reason, run_sweep_decision

POLICY = RunPolicy(heartbeat=timedelta(seconds=10), stale_after=timedelta(seconds=60), max_attempts=3)
NOW = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)
FRESH = NOW - timedelta(seconds=59)
STALE = NOW - timedelta(seconds=61)


def _claim(status, attempts, last_sign, *, owner="task-a", task="task-b"):
    return run_claim_decision(
        status=status,
        attempts=attempts,
        last_sign=last_sign,
        owner_task_id=owner,
        task_id=task,
        now=NOW,
        policy=POLICY,
    )


@pytest.mark.parametrize(
    ("status", "attempts", "last_sign", "owner", "expected"),
    [
        ("pending", 0, FRESH, "task-a", Claim.CLAIM),
        ("pending", 0, STALE, "task-a", Claim.CLAIM),
        ("pending", 1, FRESH, "task-a", Claim.RESUME),  # sent again by the sweeper
        ("pending", 3, FRESH, "task-a", Claim.EXHAUSTED),
        ("running", 1, FRESH, "task-a", Claim.BUSY),
        ("running", 1, FRESH, "task-b", Claim.OWNED),  # this very message, redelivered
        ("running", 1, STALE, "task-a", Claim.RESUME),
        ("running", 1, STALE, "task-b", Claim.RESUME),
        ("running", 2, STALE, "task-a", Claim.RESUME),
        ("running", 3, FRESH, "task-a", Claim.BUSY),  # the last attempt is still alive
        ("running", 3, STALE, "task-b", Claim.EXHAUSTED),
        ("done", 1, STALE, "task-b", Claim.FINISHED),
        ("failed", 3, STALE, "task-b", Claim.FINISHED),
    ],
)
def test_claim_decision(status, attempts, last_sign, owner, expected):
    assert _claim(status, attempts, last_sign, owner=owner, task="task-b") == expected


def test_a_message_without_a_task_id_never_counts_as_the_owner():
    assert _claim("running", 1, FRESH, owner="", task="") == Claim.BUSY


def test_stale_means_strictly_older_than_the_interval():
    assert _claim("running", 1, NOW - timedelta(seconds=60)) == Claim.BUSY
    assert _claim("running", 1, NOW - timedelta(seconds=60, microseconds=1)) == Claim.RESUME


@pytest.mark.parametrize(
    ("status", "attempts", "last_sign", "expected"),
    [
        ("running", 1, FRESH, Sweep.LEAVE),
        ("running", 1, STALE, Sweep.REQUEUE),
        ("running", 2, STALE, Sweep.REQUEUE),
        ("running", 3, STALE, Sweep.FAIL),
        ("running", 3, FRESH, Sweep.LEAVE),
        ("pending", 0, FRESH, Sweep.LEAVE),
        ("pending", 0, STALE, Sweep.REQUEUE),  # its message was lost (or waits behind a long queue)
        ("pending", 1, STALE, Sweep.REQUEUE),
        ("done", 1, STALE, Sweep.LEAVE),
        ("failed", 3, STALE, Sweep.LEAVE),
    ],
)
def test_sweep_decision(status, attempts, last_sign, expected):
    assert run_sweep_decision(status=status, attempts=attempts, last_sign=last_sign, now=NOW, policy=POLICY) == expected


def test_stopped_reason_names_the_attempts_and_the_last_progress():
    assert run_stopped_reason(attempts=3, progress=16000, total=200000) == (
        "The worker stopped 3 times; last progress 16000/200000."
    )
    assert run_stopped_reason(attempts=1, progress=0, total=None) == "The worker stopped once; last progress 0."
