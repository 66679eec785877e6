"""Starting background work while the broker (Redis) is unreachable: a clear 503 at once (JSON on the
API, a message on the page) and nothing created; a broker lost after the check leaves the run pending
for the sweeper (qc/runs.py: broker_check, run_enqueue_or_wait)."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.db import transaction
from django.test import Client
from django.utils import timezone

from evaluation.models import Run
from evaluation.services.endpoints import endpoint_create
from qc.exports.runs import export_run_create, export_runs_sweep
from qc.models import ExportRun
from tests.celery_workers import RedisServer, free_port, use_broker
from tests.evaluation.helpers import eager_tasks  # noqa: F401  (tasks in this process)

pytestmark = pytest.mark.django_db(transaction=True)

MESSAGE = "The task queue is unreachable, so nothing was started. Please try again in a minute."


@pytest.fixture
def broker_down(settings):
    """The broker's address answers nothing (a closed port)."""
    with use_broker(settings, f"redis://127.0.0.1:{free_port()}/0"):
        yield


@pytest.fixture
def admin_client(csqa):
    client = Client()
    client.force_login(csqa.admin)
    return client


@pytest.fixture
def endpoint():
    return endpoint_create(name="test", base_url="http://127.0.0.1:9/v1", model="m", is_local=True, timeout_seconds=5)


def _timed(request):
    started = time.monotonic()
    response = request()
    return response, time.monotonic() - started


def test_an_export_started_on_the_page_answers_503_with_a_message_and_creates_nothing(csqa, admin_client, broker_down):
    response, seconds = _timed(lambda: admin_client.post("/p/demo/export/", {"format": "jsonl"}))

    assert response.status_code == 503
    assert MESSAGE in response.content.decode()
    assert seconds < 3
    assert ExportRun.objects.count() == 0


def test_an_export_started_over_the_api_answers_503_in_json_and_creates_nothing(csqa, api_client, broker_down):
    api_client.force_authenticate(csqa.admin)

    response, seconds = _timed(lambda: api_client.post("/api/projects/demo/exports/", {"format": "csv"}, format="json"))

    assert response.status_code == 503
    assert response["Content-Type"] == "application/json"
    assert response.json() == {"detail": MESSAGE, "code": "unavailable"}
    assert seconds < 3
    assert ExportRun.objects.count() == 0


def test_a_model_run_started_on_the_page_answers_503_with_a_message_and_creates_nothing(
    csqa, admin_client, endpoint, broker_down
):
    response, seconds = _timed(
        lambda: admin_client.post("/p/demo/runs/", {"endpoint": "test", "prompts": "Apa kabar?"})
    )

    assert response.status_code == 503
    assert MESSAGE in response.content.decode()
    assert seconds < 3
    assert Run.objects.count() == 0


def test_resuming_a_paused_run_shows_the_message_and_leaves_it_paused(csqa, admin_client, endpoint, broker_down):
    run = Run.objects.create(kind="responses", project=csqa.project, status="paused", attempts=1, task_id="before")
    run.endpoints.set([endpoint])

    response = admin_client.post(f"/p/demo/runs/{run.pk}/resume/")
    page = admin_client.get(response.url)

    run.refresh_from_db()
    assert (response.status_code, response.url) == (302, f"/p/demo/runs/{run.pk}/")  # as for any refused control
    assert MESSAGE in page.content.decode()
    assert (run.status, run.attempts, run.task_id) == ("paused", 1, "before")


def test_a_broker_lost_after_the_check_leaves_the_run_pending_and_the_sweeper_sends_it(
    csqa, settings, tmp_path, django_capture_on_commit_callbacks
):
    redis_server = RedisServer(tmp_path)
    redis_server.start()
    try:
        with use_broker(settings, redis_server.url):
            with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
                run = export_run_create(project=csqa.project, fmt="jsonl", user=csqa.admin)
                redis_server.kill()  # after the check, before the message is sent at commit
            first_task = run.task_id
            run.refresh_from_db()
            assert (run.status, run.task_id) == ("pending", first_task)

            redis_server.start()  # back (empty: the message was never sent)
            ExportRun.objects.filter(pk=run.pk).update(heartbeat_at=timezone.now() - timedelta(hours=1))
            with django_capture_on_commit_callbacks(execute=True):
                report = export_runs_sweep()
            run.refresh_from_db()
    finally:
        redis_server.kill()

    assert report.requeued == [run.pk]
    assert run.status == "pending"
    assert run.task_id != first_task


def test_without_a_broker_work_still_runs_in_the_process(csqa, admin_client, eager_tasks, tmp_path):  # noqa: F811
    # No REDIS_URL (the demo): nothing to check; the export runs inside the web process.
    eager_tasks.MEDIA_ROOT = tmp_path

    response = admin_client.post("/p/demo/export/", {"format": "jsonl"})

    assert response.status_code == 302
    assert list(ExportRun.objects.values_list("status", flat=True)) == ["done"]
