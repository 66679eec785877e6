"""A benchmark run on a real Celery worker (queue llm) against the scripted test server: the same
predictions and report as in process."""

from __future__ import annotations

import pytest

from evaluation.benchmarks.report import benchmark_report
from evaluation.models import Prediction
from evaluation.services.runs import run_create
from tests.evaluation.benchmarks.world import choice_project
from tests.evaluation.helpers import make_endpoint, run_finished, wait_for
from tests.evaluation.test_run_workers import workers  # noqa: F401  (real workers, with the broker)
from tests.qc.test_run_faults import broker  # noqa: F401

pytestmark = [pytest.mark.celery, pytest.mark.django_db(transaction=True)]


def test_a_benchmark_on_a_real_worker(workers, llm_server):  # noqa: F811
    llm_server.configure(handler="tests.evaluation.benchmarks.script:reply", delay_ms=20)
    alpha = make_endpoint(llm_server, name="alpha", model="alpha-model", max_concurrency=4)
    beta = make_endpoint(llm_server, name="beta", model="beta-model", max_concurrency=4)
    project, _items = choice_project()
    workers.start("w1")

    run = run_create(
        kind="benchmark",
        endpoints=[alpha, beta],
        project=project,
        parameters={"templates": ["question_choices", "helm"]},
    )
    wait_for(lambda: run_finished(run), 60, "the benchmark run to finish", workers.output)
    report = benchmark_report(run=run)

    assert (run.status, run.total, run.calls_done, run.calls_failed) == ("done", 20, 20, 0), workers.output()
    assert Prediction.objects.filter(run=run).count() == 20
    assert (report["predictions"], report["parsed"], report["accuracy"]) == (20, 18, 0.45)
    assert {k: v["accuracy"] for k, v in report["by_endpoint"].items()} == {"alpha": 0.7, "beta": 0.2}
    assert llm_server.stats()["chat"] == 20
