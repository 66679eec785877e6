"""Fair use of the workers, on the documented pair of real workers (queue `celery`, queue `llm` with two
processes) and a Redis of this test's own: one project's 25 runs on a slow endpoint delay another
project's export by less than a second, hold at most their share of the llm processes
(GOTONG_LLM_PROJECT_SLOTS=1 here), and another project's run queued behind them starts at once."""

from __future__ import annotations

import time

import pytest
from django.db import connection

from evaluation.models import Run
from evaluation.services.runs import run_create
from qc.exports.runs import export_run_create
from qc.models import ExportRun
from tests.celery_workers import WorkerPool, use_broker
from tests.evaluation.helpers import make_endpoint, wait_for
from tests.qc.helpers import add_judgment, make_item, make_project

pytestmark = [pytest.mark.celery, pytest.mark.django_db(transaction=True)]

RUNS = 25
SLOW_MS = 1500


@pytest.fixture
def workers(tmp_path, settings, redis_server):
    assert connection.vendor == "postgresql", "these tests need PostgreSQL (set DATABASE_URL)"
    settings.MEDIA_ROOT = tmp_path / "media"
    pool = WorkerPool(
        tmp_path,
        env={
            "REDIS_URL": redis_server.url,
            "GOTONG_MEDIA_ROOT": str(settings.MEDIA_ROOT),
            "GOTONG_LLM_PROJECT_SLOTS": "1",
            "GOTONG_LLM_HELPERS": "1",
        },
    )
    with use_broker(settings, redis_server.url):
        try:
            yield pool
        finally:
            pool.kill_all()


def _exported_project(slug: str):
    project, people = make_project(slug=slug, annotators=3)
    for i in range(30):
        item = make_item(project, people[i % 3], question=f"Pertanyaan {i}", external_id=f"q{i:03d}")
        add_judgment(item, people[(i + 1) % 3], "B")
    return project


def _export_seconds(project, workers) -> float:
    started = time.monotonic()
    run = export_run_create(project=project, fmt="jsonl", user=None)

    def done():
        run.refresh_from_db()
        return run.status == "done"

    wait_for(done, 30, "the export to finish", workers.output)
    return time.monotonic() - started


def _running(project) -> int:
    return Run.objects.filter(project=project, status="running").count()


def test_one_projects_slow_runs_neither_delay_an_export_nor_hold_back_another_projects_run(workers, llm_server):
    busy, other = make_project(slug="busy", annotators=1)[0], make_project(slug="other", annotators=1)[0]
    exported = _exported_project("exported")
    endpoint = make_endpoint(llm_server, max_concurrency=8)
    workers.start("qc", queues="celery", concurrency=2)
    workers.start("llm", queues="llm", concurrency=2)
    idle_export = _export_seconds(exported, workers)

    llm_server.configure(delay_ms=SLOW_MS)
    for i in range(RUNS):
        run_create(kind="responses", endpoints=[endpoint], project=busy, parameters={"prompts": [f"a{i}", f"b{i}"]})
    wait_for(lambda: _running(busy), 30, "the busy project's first run to start", workers.output)
    loaded_export = _export_seconds(exported, workers)
    late = run_create(kind="responses", endpoints=[endpoint], project=other, parameters={"prompts": ["c"]})
    started = time.monotonic()
    wait_for(lambda: Run.objects.get(pk=late.pk).started_at, 15, "the other project's run to start", workers.output)
    waited = time.monotonic() - started
    busy_running = [_running(busy)]
    for _ in range(10):
        time.sleep(0.3)
        busy_running.append(_running(busy))

    assert loaded_export < idle_export + 1.0, (idle_export, loaded_export)
    # Its turn came while the busy project's runs still queued (each lasts SLOW_MS; serial, 25 take ~40 s).
    assert waited < 2 * SLOW_MS / 1000 + 2, workers.output()
    assert Run.objects.filter(project=busy, status="pending").count() > RUNS // 2
    assert max(busy_running) == 1  # its share: one of the two llm processes
    assert ExportRun.objects.filter(status="done").count() == 2
