"""Redis dies for 10 s while a benchmark runs on real workers (the documented pair: queue `celery` with
beat, queue `llm`), on a Redis of this test's own that comes back empty, as a restarted Redis without
a volume. The run loses nothing to the outage: every call has exactly one result, none failed, the
same accuracy as an undisturbed run of the same stub, and both workers are still alive."""

from __future__ import annotations

import re
import time

import pytest
from django.db import connection
from django.db.models import Count

from evaluation.benchmarks.report import benchmark_report
from evaluation.models import Call, Prediction
from evaluation.services.runs import run_create
from tests.celery_workers import WorkerPool, use_broker
from tests.evaluation.benchmarks.world import choice_project
from tests.evaluation.helpers import make_endpoint, run_finished, wait_for

pytestmark = [pytest.mark.celery, pytest.mark.django_db(transaction=True)]

OUTAGE_SECONDS = 10
CALLS = 20  # 5 items x 2 templates x 2 endpoints
TEMPLATES = {"templates": ["question_choices", "helm"]}


@pytest.fixture
def workers(tmp_path, settings, redis_server):
    assert connection.vendor == "postgresql", "these tests need PostgreSQL (set DATABASE_URL)"
    pool = WorkerPool(
        tmp_path,
        env={
            "REDIS_URL": redis_server.url,
            "GOTONG_RUN_HEARTBEAT_SECONDS": "1",
            "GOTONG_RUN_STALE_SECONDS": "3",
            "GOTONG_SWEEP_SECONDS": "2",
            "GOTONG_LLM_THREADS": "4",
        },
    )
    with use_broker(settings, redis_server.url):
        try:
            yield pool
        finally:
            pool.kill_all()


def _benchmark(endpoints, project):
    return run_create(kind="benchmark", endpoints=endpoints, project=project, parameters=TEMPLATES)


def _scores(run) -> tuple:
    report = benchmark_report(run=run)
    by_endpoint = {name: figures["accuracy"] for name, figures in report["by_endpoint"].items()}
    return report["predictions"], report["parsed"], report["accuracy"], by_endpoint


def test_a_redis_outage_mid_benchmark_loses_no_call_and_no_worker(workers, redis_server, llm_server):
    llm_server.configure(handler="tests.evaluation.benchmarks.script:reply", delay_ms=20)
    alpha = make_endpoint(llm_server, name="alpha", model="alpha-model", max_concurrency=1)
    beta = make_endpoint(llm_server, name="beta", model="beta-model", max_concurrency=1)
    project, _items = choice_project()
    qc_worker = workers.start("qc", beat=True, queues="celery")
    llm_worker = workers.start("llm", queues="llm", concurrency=2)
    undisturbed = _benchmark([alpha, beta], project)
    wait_for(lambda: run_finished(undisturbed), 60, "the undisturbed run to finish", workers.output)

    llm_server.configure(handler="tests.evaluation.benchmarks.script:reply", delay_ms=1000)
    run = _benchmark([alpha, beta], project)
    wait_for(lambda: Call.objects.filter(run=run, status="done").count() >= 2, 60, "some progress", workers.output)
    redis_server.kill()
    time.sleep(OUTAGE_SECONDS)
    done_during_outage = Call.objects.filter(run=run, status="done").count()
    redis_server.start()
    wait_for(lambda: run_finished(run), 90, "the run to finish after the outage", workers.output)
    llm_server.configure(handler="tests.evaluation.benchmarks.script:reply", delay_ms=20)
    after = _benchmark([alpha, beta], project)
    wait_for(lambda: run_finished(after), 60, "a run sent after the outage to finish", workers.output)

    calls = Call.objects.filter(run=run)
    per_call = Prediction.objects.filter(run=run).values("call_id").annotate(n=Count("pk"))
    llm_log = (workers.tmp_path / "llm.log").read_text(errors="replace")
    assert (run.status, run.total, run.calls_done, run.calls_failed) == ("done", CALLS, CALLS, 0), workers.output()
    assert set(calls.values_list("status", flat=True)) == {"done"}
    assert sorted(row["n"] for row in per_call) == [1] * CALLS
    assert set(per_call.values_list("call_id", flat=True)) == set(calls.values_list("pk", flat=True))
    assert _scores(run) == _scores(undisturbed) == (20, 18, 0.45, {"alpha": 0.7, "beta": 0.2})
    # The outage did reach the run (its calls waited for the limiter) and stopped it for a while.
    assert re.search(r"llm_run\.limiter_unavailable", llm_log), workers.output()
    assert done_during_outage < CALLS
    # Both workers lived through it, and the llm worker took the next run from the restarted Redis.
    assert (qc_worker.poll(), llm_worker.poll()) == (None, None), workers.output()
    assert (after.status, after.calls_done) == ("done", CALLS)
    assert "Unrecoverable error" not in workers.output()
