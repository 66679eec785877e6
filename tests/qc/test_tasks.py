"""qc's Celery tasks in a real worker thread, through Redis (db 5 unless GOTONG_TEST_CELERY_REDIS says otherwise)."""

import os
import time

import pytest
from celery.contrib.testing.worker import start_worker
from celery.signals import task_postrun
from django.db import connections

from annotation.models import Item
from config.celery import app
from qc.exports.runs import export_run_create
from qc.models import ExportRun, GoldDecision
from qc.tasks import recompute_gold
from tests.qc.helpers import add_judgment, make_item, make_project

REDIS = os.environ.get("GOTONG_TEST_CELERY_REDIS", "redis://127.0.0.1:6379/5")

pytestmark = [pytest.mark.celery, pytest.mark.django_db(transaction=True)]


def _close_worker_connections(**kwargs):
    # The worker runs in its own thread with its own connections; close them so the test database can
    # be flushed and dropped afterwards.
    connections.close_all()


@pytest.fixture
def worker(settings, tmp_path):
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.CELERY_BROKER_URL = REDIS
    settings.CELERY_RESULT_BACKEND = REDIS
    settings.MEDIA_ROOT = tmp_path
    keys = ("broker_url", "result_backend", "task_always_eager")
    previous = {key: app.conf[key] for key in keys}
    app.conf.update(broker_url=REDIS, result_backend=REDIS, task_always_eager=False)
    # Connections and the result backend are cached on the app: drop them so the new URLs are used.
    app._pool = None
    app.__dict__.pop("amqp", None)
    if hasattr(app._local, "backend"):
        del app._local.backend
    app.control.purge()
    task_postrun.connect(_close_worker_connections, weak=False)
    try:
        with start_worker(app, perform_ping_check=False, loglevel="WARNING", shutdown_timeout=30) as w:
            yield w
    finally:
        task_postrun.disconnect(_close_worker_connections)
        app.conf.update(previous)
        app._pool = None
        app.__dict__.pop("amqp", None)
        if hasattr(app._local, "backend"):
            del app._local.backend


def _project_with_answers(n_items: int):
    project, people = make_project(slug="celery", annotators=6)
    for i in range(n_items):
        item = make_item(project, people[i % 6], question=f"Pertanyaan {i}", answer="B", external_id=f"q{i}")
        for user in people:
            if user.pk != item.author_id:
                add_judgment(item, user, "B")
    return project


def _wait_for(run: ExportRun, timeout: float = 60) -> ExportRun:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        run.refresh_from_db()
        if run.status in (ExportRun.Status.DONE, ExportRun.Status.FAILED):
            return run
        time.sleep(0.1)
    raise AssertionError(f"Export run still {run.status} after {timeout}s")


def test_export_runs_in_the_worker_and_reports_done(worker, tmp_path):
    project = _project_with_answers(12)

    run = export_run_create(project=project, fmt="jsonl", user=None)
    assert run.status == ExportRun.Status.PENDING

    run = _wait_for(run)
    assert (run.status, run.error, run.progress, run.total) == ("done", "", 12, 12)
    assert run.files == {"test": "test.jsonl", "readme": "README.md"}
    assert run.path == f"exports/celery/run-{run.pk}-jsonl"
    lines = (tmp_path / run.path / "test.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(lines) == 12
    assert (tmp_path / run.path / "README.md").exists()
    assert run.started_at is not None and run.finished_at >= run.started_at


def test_recompute_gold_runs_in_the_worker(worker):
    project = _project_with_answers(3)
    assert not GoldDecision.objects.exists()

    result = recompute_gold.delay(project.pk)

    assert result.get(timeout=60) == {"gold": 3}
    assert set(Item.objects.filter(project=project).values_list("status", flat=True)) == {"gold"}
    assert GoldDecision.objects.filter(item__project=project, outcome="gold").count() == 3
