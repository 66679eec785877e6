"""LLM runs on real Celery worker processes (prefork) on Redis and PostgreSQL, against the real test
server: the shared limiter across two workers, SIGKILL of a worker mid-run, pause/resume/cancel."""

from __future__ import annotations

import re
import subprocess
import time
from pathlib import Path

import pytest
from django.db import connection

from evaluation.models import Call, Endpoint, Run
from evaluation.services.runs import run_cancel, run_create, run_pause, run_resume
from tests.celery_workers import WorkerPool
from tests.evaluation.helpers import make_endpoint, run_finished, wait_for
from tests.evaluation.keys import key_env  # noqa: F401  (fixture)
from tests.qc.test_run_faults import broker  # noqa: F401  (the Redis broker fixture)

pytestmark = [pytest.mark.celery, pytest.mark.django_db(transaction=True)]

HEARTBEAT, STALE, SWEEP, LEASE = 1, 3, 2, 4  # seconds


class LLMWorkers(WorkerPool):
    """Workers of both queues with short heartbeat, sweep and call-lease periods."""

    def __init__(self, tmp_path: Path):
        super().__init__(
            tmp_path,
            env={
                "GOTONG_RUN_HEARTBEAT_SECONDS": str(HEARTBEAT),
                "GOTONG_RUN_STALE_SECONDS": str(STALE),
                "GOTONG_SWEEP_SECONDS": str(SWEEP),
                "GOTONG_LLM_LEASE_SECONDS": str(LEASE),
                "GOTONG_LLM_HELPERS": "1",
                "GOTONG_LLM_BACKOFF_SECONDS": "0.1",
            },
            queues="llm,celery",
        )

    def start(self, name: str, *, beat: bool = False, threads: int = 8) -> subprocess.Popen:
        return super().start(name, beat=beat, env={"GOTONG_LLM_THREADS": str(threads)})

    def calls_done_by(self, name: str) -> int:
        text = (self.tmp_path / f"{name}.log").read_text(errors="replace")
        return sum(int(m) for m in re.findall(r"succeeded in [\d.]+s: \{[^}]*'done': (\d+)", text))

    def calls_logged(self, names: list[str], *, total: int, timeout: float = 15) -> dict[str, int]:
        """The calls each worker's run tasks report having done, once they add up to `total`. A worker
        logs its task's result when the task returns, which can be a moment after the run itself is
        marked done by the other worker: reading the logs at once sometimes missed a worker's share."""
        wait_for(
            lambda: sum(self.calls_done_by(name) for name in names) == total,
            timeout,
            f"the workers' logs to account for {total} calls",
            self.output,
        )
        return {name: self.calls_done_by(name) for name in names}


@pytest.fixture
def workers(tmp_path, broker):  # noqa: F811
    assert connection.vendor == "postgresql", "these tests need PostgreSQL (set DATABASE_URL)"
    broker.flushdb()
    pool = LLMWorkers(tmp_path)
    try:
        yield pool
    finally:
        for proc in pool.procs:
            pool.kill(proc)


def _prompts(n: int) -> list[str]:
    return [f"Pertanyaan nomor {i}" for i in range(n)]


def _done(run: Run) -> int:
    return Call.objects.filter(run=run, status="done").count()


def test_the_limit_holds_across_two_workers_and_both_work(workers, llm_server):
    llm_server.configure(delay_ms=150)
    endpoint = make_endpoint(llm_server, max_concurrency=3)
    workers.start("w1")
    workers.start("w2")

    run = run_create(kind="responses", endpoints=[endpoint], parameters={"prompts": _prompts(40)})
    wait_for(lambda: run_finished(run), 60, "the run to finish", workers.output)

    stats = llm_server.stats()
    assert (run.status, run.calls_done, run.calls_failed, run.total) == ("done", 40, 0, 40), workers.output()
    assert stats["chat"] == 40
    assert stats["max_concurrent"] == 3  # reached, never passed, by the two workers together
    done_by = workers.calls_logged(["w1", "w2"], total=40)
    assert done_by["w1"] > 0 and done_by["w2"] > 0, workers.output()


def test_a_worker_killed_mid_run_loses_nothing_and_duplicates_nothing(workers, llm_server):
    llm_server.configure(delay_ms=300)
    endpoint = make_endpoint(llm_server, max_concurrency=3)
    first = workers.start("first", beat=True)
    run = run_create(kind="responses", endpoints=[endpoint], parameters={"prompts": _prompts(30)})

    wait_for(lambda: _done(run) >= 6, 60, "some progress", workers.output)
    workers.kill(first)
    at_kill = _done(run)
    workers.start("second", beat=True)
    wait_for(lambda: run_finished(run), STALE + SWEEP + LEASE + 40, "the run to finish after the kill", workers.output)

    calls = list(Call.objects.filter(run=run))
    assert 6 <= at_kill < 30
    assert (run.status, run.calls_done, run.calls_failed, run.progress, run.total) == ("done", 30, 0, 30, 30)
    assert run.attempts == 2, workers.output()
    assert sorted(c.unit_key for c in calls) == sorted(f"p{i + 1}" for i in range(30))
    assert {c.status for c in calls} == {"done"}
    assert {c.text for c in calls} == {f"Reply to: Pertanyaan nomor {i}" for i in range(30)}
    # Requests in flight at the kill (at most the limit, 3) and replies received but not yet written
    # (at most one batch, 3 claimed + 1) were sent again; each unit's reply was recorded once.
    assert 30 <= llm_server.stats()["chat"] <= 30 + 3 + 4


def test_pause_stops_the_calls_resume_finishes_them(workers, llm_server):
    llm_server.configure(delay_ms=200)
    endpoint = make_endpoint(llm_server, max_concurrency=2)
    workers.start("w1", beat=True)
    run = run_create(kind="responses", endpoints=[endpoint], parameters={"prompts": _prompts(24)})
    wait_for(lambda: _done(run) >= 3, 60, "some progress", workers.output)

    run_pause(run=run)
    wait_for(lambda: not Call.objects.filter(run=run, status="running").exists(), 10, "in-flight calls", workers.output)
    paused_done, paused_requests = _done(run), llm_server.stats()["chat"]
    time.sleep(2)

    assert Run.objects.get(pk=run.pk).status == "paused"
    assert (_done(run), llm_server.stats()["chat"]) == (paused_done, paused_requests)
    assert paused_done < 24
    run_resume(run=run)
    wait_for(lambda: run_finished(run), 60, "the resumed run to finish", workers.output)
    assert (run.status, run.calls_done, run.total) == ("done", 24, 24)
    assert llm_server.stats()["chat"] == 24


def test_cancel_stops_for_good(workers, llm_server):
    llm_server.configure(delay_ms=200)
    endpoint = make_endpoint(llm_server, max_concurrency=2)
    workers.start("w1", beat=True)
    run = run_create(kind="responses", endpoints=[endpoint], parameters={"prompts": _prompts(24)})
    wait_for(lambda: _done(run) >= 2, 60, "some progress", workers.output)

    run_cancel(run=run)
    time.sleep(1.5)  # in-flight replies arrive and are dropped
    done = _done(run)
    requests = llm_server.stats()["chat"]
    time.sleep(1.5)

    statuses = sorted(set(Call.objects.filter(run=run).values_list("status", flat=True)))
    assert Run.objects.get(pk=run.pk).status == "cancelled"
    assert statuses == ["cancelled", "done"]
    assert Call.objects.filter(run=run, status="cancelled").count() == 24 - done
    assert (_done(run), llm_server.stats()["chat"]) == (done, requests)


def test_a_worker_sends_a_granted_key_and_never_the_secret_key_an_old_row_names(workers, llm_server, key_env):  # noqa: F811
    # The worker inherits this environment: its DJANGO_SECRET_KEY is tests.evaluation.keys.SECRET and
    # its GOTONG_LLM_KEY_OPENAI is sk-granted-openai.
    old = make_endpoint(llm_server, name="old")
    Endpoint.objects.filter(pk=old.pk).update(api_key_env="DJANGO_SECRET_KEY")  # saved before the rule
    granted = make_endpoint(llm_server, name="granted", api_key_env="GOTONG_LLM_KEY_OPENAI")
    workers.start("w1")

    refused = run_create(
        kind="responses", endpoints=[Endpoint.objects.get(pk=old.pk)], parameters={"prompts": _prompts(3)}
    )
    wait_for(lambda: run_finished(refused), 60, "the run on the old row to finish", workers.output)
    sent = run_create(kind="responses", endpoints=[granted], parameters={"prompts": _prompts(3)})
    wait_for(lambda: run_finished(sent), 60, "the run on the granted endpoint to finish", workers.output)

    errors = set(Call.objects.filter(run=refused).values_list("status", "error_kind"))
    assert (refused.calls_done, refused.calls_failed, errors) == (0, 3, {("failed", "config")}), workers.output()
    assert (sent.status, sent.calls_done) == ("done", 3)
    authorizations = llm_server.stats()["authorizations"]
    assert authorizations == ["Bearer sk-granted-openai"] * 3
