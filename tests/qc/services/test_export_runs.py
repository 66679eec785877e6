"""Export runs that outlive their worker: claim, resume, fencing, the sweeper, the page (no worker here)."""

import json
import logging
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from qc.exports import runs as export_runs
from qc.exports.runs import (
    export_run_claim,
    export_run_create,
    export_run_execute,
    export_runs_sweep,
)
from qc.models import ExportRun
from qc.runs import Claim, run_beat, run_fail, run_take
from tests.qc.helpers import add_judgment, make_item, make_project

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def policy(settings, tmp_path):
    settings.GOTONG_RUN_HEARTBEAT_SECONDS = 10
    settings.GOTONG_RUN_STALE_SECONDS = 60
    settings.GOTONG_RUN_MAX_ATTEMPTS = 3
    settings.MEDIA_ROOT = tmp_path


@pytest.fixture
def project():
    project, people = make_project(slug="runs", annotators=3)
    for i in range(3):
        item = make_item(project, people[i], question=f"Pertanyaan {i}", answer="B", external_id=f"q{i}")
        for user in people:
            if user.pk != item.author_id:
                add_judgment(item, user, "B")
    return project


@pytest.fixture
def sent(monkeypatch):
    """Messages the services send, as (run id, task id), instead of Celery's eager execution."""
    messages = []
    monkeypatch.setattr(export_runs, "export_run_enqueue", lambda run_id, task_id: messages.append((run_id, task_id)))
    return messages


def _run(project, **fields) -> ExportRun:
    run = export_run_create(project=project, fmt="jsonl", user=None)
    ExportRun.objects.filter(pk=run.pk).update(**fields)
    run.refresh_from_db()
    return run


def _ago(seconds: float):
    return timezone.now() - timedelta(seconds=seconds)


def _state(run: ExportRun) -> tuple:
    run.refresh_from_db()
    return (run.status, run.attempts, run.task_id, run.progress, run.total, run.error)


def _events(caplog, name: str) -> list[dict]:
    return [
        {key: getattr(r, key) for key in ("run_id", "attempt", "reason") if hasattr(r, key)}
        for r in caplog.records
        if r.getMessage() == name
    ]


# --- claiming ----------------------------------------------------------------------------------------


def test_a_new_run_is_pending_with_its_message_named_and_a_sign_of_life(
    project, sent, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        run = export_run_create(project=project, fmt="jsonl", user=None)

    assert (run.status, run.attempts, run.started_at) == ("pending", 0, None)
    assert run.heartbeat_at is not None and len(run.task_id) == 36
    assert sent == [(run.pk, run.task_id)]


def test_claiming_a_pending_run_makes_it_running_as_attempt_one(project, sent, caplog):
    run = _run(project)
    message = run.task_id
    caplog.set_level(logging.INFO, logger="qc.runs")

    taken = export_run_claim(run_id=run.pk, task_id=message)

    run.refresh_from_db()
    assert (taken.decision, taken.attempt) == (Claim.CLAIM, 1)
    assert (run.status, run.attempts, run.task_id) == ("running", 1, message)
    assert run.heartbeat_at >= _ago(5) and run.started_at == run.heartbeat_at
    assert _events(caplog, "export.claimed") == [{"run_id": run.pk, "attempt": 1}]


def test_a_running_run_with_a_fresh_heartbeat_is_left_to_its_worker(project, sent):
    run = _run(project, status="running", attempts=1, heartbeat_at=_ago(59), task_id="worker-a", progress=40, total=90)

    taken = export_run_claim(run_id=run.pk, task_id="another-message")

    assert taken.decision == Claim.BUSY
    assert _state(run) == ("running", 1, "worker-a", 40, 90, "")


def test_a_stale_running_run_is_resumed_by_any_message_and_keeps_its_start(project, sent, caplog):
    started = _ago(3600)
    run = _run(
        project,
        status="running",
        attempts=1,
        heartbeat_at=_ago(61),
        started_at=started,
        task_id="worker-a",
        progress=40,
    )
    caplog.set_level(logging.INFO, logger="qc.runs")

    taken = export_run_claim(run_id=run.pk, task_id="redelivered")

    assert (taken.decision, taken.attempt) == (Claim.RESUME, 2)
    assert _state(run) == ("running", 2, "redelivered", 40, None, "")
    assert run.started_at == started and run.heartbeat_at >= _ago(5)
    assert _events(caplog, "export.resumed") == [{"run_id": run.pk, "attempt": 2}]


@pytest.mark.parametrize("status", ["done", "failed"])
def test_a_finished_run_is_never_claimed(project, sent, status):
    run = _run(project, status=status, attempts=1, heartbeat_at=_ago(10_000), task_id="worker-a", progress=3, total=3)

    taken = export_run_claim(run_id=run.pk, task_id="worker-a")

    assert taken.decision == Claim.FINISHED
    assert _state(run) == (status, 1, "worker-a", 3, 3, "")


def test_a_stale_run_past_max_attempts_fails_with_the_reason_instead_of_a_fourth_try(project, sent, caplog):
    run = _run(project, status="running", attempts=3, heartbeat_at=_ago(61), task_id="w", progress=16000, total=200000)
    caplog.set_level(logging.INFO, logger="qc.runs")

    taken = export_run_claim(run_id=run.pk, task_id="w")

    assert taken.decision == Claim.EXHAUSTED
    reason = "The worker stopped 3 times; last progress 16000/200000."
    assert _state(run) == ("failed", 3, "w", 16000, 200000, reason)
    assert run.finished_at is not None
    assert _events(caplog, "export.failed") == [{"run_id": run.pk, "attempt": 3, "reason": reason}]


def test_two_messages_racing_for_a_stale_run_get_one_attempt_between_them(project, sent):
    run = _run(project, status="running", attempts=1, heartbeat_at=_ago(61), task_id="w")

    first = export_run_claim(run_id=run.pk, task_id="m1")
    second = export_run_claim(run_id=run.pk, task_id="m2")

    assert [(first.decision, first.attempt), (second.decision, second.attempt)] == [
        (Claim.RESUME, 2),
        (Claim.BUSY, 0),
    ]
    assert _state(run)[:3] == ("running", 2, "m1")


# --- a redelivered message ------------------------------------------------------------------------


def test_a_redelivered_message_waits_for_its_dead_executions_heartbeat_to_go_stale_then_resumes(project, sent):
    run = _run(project, status="running", attempts=1, heartbeat_at=_ago(1), task_id="m1", progress=40)
    naps = []

    def sleep(seconds):  # time passes, nobody beats
        naps.append(seconds)
        ExportRun.objects.filter(pk=run.pk).update(heartbeat_at=_ago(1 + 30 * len(naps)))

    taken = run_take(model=ExportRun, run_id=run.pk, task_id="m1", sleep=sleep)

    assert (taken.decision, taken.attempt) == (Claim.RESUME, 2)
    assert naps == [1.0, 1.0]
    assert _state(run)[:3] == ("running", 2, "m1")


def test_a_redelivered_message_whose_first_execution_still_beats_leaves_it_alone(project, sent):
    run = _run(project, status="running", attempts=1, heartbeat_at=_ago(1), task_id="m1", progress=40)

    def sleep(seconds):  # the first execution is alive and beats
        ExportRun.objects.filter(pk=run.pk).update(heartbeat_at=timezone.now())

    taken = run_take(model=ExportRun, run_id=run.pk, task_id="m1", sleep=sleep)

    assert taken.decision == Claim.BUSY
    assert _state(run) == ("running", 1, "m1", 40, None, "")


# --- fencing: a worker that lost its run writes nothing ----------------------------------------


def test_a_worker_that_lost_its_run_can_neither_beat_nor_fail_it(project, sent):
    run = _run(project, status="running", attempts=1, heartbeat_at=_ago(61), task_id="old")
    export_run_claim(run_id=run.pk, task_id="new")
    before = _state(run)

    assert run_beat(model=ExportRun, run_id=run.pk, attempt=1, progress=99) is False
    assert run_fail(model=ExportRun, run_id=run.pk, attempt=1, error="OSError") is False
    assert _state(run) == before == ("running", 2, "new", 0, None, "")
    assert run_beat(model=ExportRun, run_id=run.pk, attempt=2, progress=5) is True


def test_an_export_that_loses_its_run_half_way_stops_and_publishes_nothing(project, sent, settings, monkeypatch):
    settings.GOTONG_EXPORT_CHUNK_SIZE = 1
    run = _run(project)
    real_export = export_runs.export_files

    def taken_over_then_export(**kwargs):
        # The sweeper decided this worker was dead and another message resumed the run.
        ExportRun.objects.filter(pk=run.pk).update(attempts=2, task_id="new", heartbeat_at=timezone.now())
        return real_export(**kwargs)

    monkeypatch.setattr(export_runs, "export_files", taken_over_then_export)

    result = export_run_execute(run_id=run.pk, task_id=run.task_id)

    folder = export_runs.export_run_dir(run)
    assert result is None
    assert _state(run) == ("running", 2, "new", 0, 3, "")
    assert sorted(p.name for p in folder.iterdir()) == []


def test_resuming_starts_again_in_a_fresh_folder_and_shows_only_complete_files(project, sent):
    run = _run(project, status="running", attempts=1, heartbeat_at=_ago(61), task_id="dead", progress=2, total=3)
    folder = export_runs.export_run_dir(run)
    (folder / ".attempt-1").mkdir(parents=True)
    (folder / ".attempt-1" / ".test.jsonl.tmp").write_text('{"half": ')

    done = export_run_execute(run_id=run.pk, task_id="redelivered")

    assert (done.status, done.attempts, done.progress, done.total, done.error) == ("done", 2, 3, 3, "")
    assert done.files == {"test": "test.jsonl", "readme": "README.md"}
    assert sorted(p.name for p in folder.iterdir()) == ["README.md", "test.jsonl"]
    lines = (folder / "test.jsonl").read_text("utf-8").splitlines()
    assert [json.loads(line)["id"] for line in lines] == ["q0", "q1", "q2"]
    assert done.finished_at >= done.started_at


def test_a_failing_export_records_the_error_and_leaves_no_files(project, sent, monkeypatch):
    run = _run(project)

    def broken(**kwargs):
        kwargs["out_dir"].mkdir(parents=True)
        (kwargs["out_dir"] / ".test.jsonl.tmp").write_text("partial")
        raise OSError("disk full")

    monkeypatch.setattr(export_runs, "export_files", broken)

    with pytest.raises(OSError):
        export_run_execute(run_id=run.pk, task_id=run.task_id)

    assert _state(run) == ("failed", 1, run.task_id, 0, 3, "OSError: disk full")
    assert list(export_runs.export_run_dir(run).iterdir()) == []


# --- the sweeper ---------------------------------------------------------------------------------


def test_the_sweeper_sends_a_stale_running_run_again_as_pending(
    project, sent, caplog, django_capture_on_commit_callbacks
):
    run = _run(project, status="running", attempts=1, heartbeat_at=_ago(61), task_id="dead", progress=16, total=90)
    caplog.set_level(logging.INFO, logger="qc.runs")

    with django_capture_on_commit_callbacks(execute=True):
        report = export_runs_sweep()

    run.refresh_from_db()
    assert (report.requeued, report.failed) == ([run.pk], [])
    assert (run.status, run.attempts, run.progress, run.total) == ("pending", 1, 16, 90)
    assert run.task_id != "dead" and run.heartbeat_at >= _ago(5)
    assert sent[-1] == (run.pk, run.task_id)
    assert _events(caplog, "export.swept") == [{"run_id": run.pk}]

    # The message it sent resumes the run as attempt 2.
    taken = export_run_claim(run_id=run.pk, task_id=run.task_id)
    assert (taken.decision, taken.attempt) == (Claim.RESUME, 2)


def test_the_sweeper_fails_a_run_whose_worker_stopped_max_attempts_times(
    project, sent, caplog, django_capture_on_commit_callbacks
):
    run = _run(project, status="running", attempts=3, heartbeat_at=_ago(61), task_id="w", progress=16000, total=200000)
    caplog.set_level(logging.INFO, logger="qc.runs")
    before = len(sent)

    with django_capture_on_commit_callbacks(execute=True):
        report = export_runs_sweep()

    reason = "The worker stopped 3 times; last progress 16000/200000."
    assert (report.requeued, report.failed) == ([], [run.pk])
    assert _state(run) == ("failed", 3, "w", 16000, 200000, reason)
    assert len(sent) == before
    assert _events(caplog, "export.failed") == [{"run_id": run.pk, "attempt": 3, "reason": reason}]


def test_the_sweeper_sends_a_pending_run_whose_message_was_lost_again(
    project, sent, django_capture_on_commit_callbacks
):
    lost = _run(project, heartbeat_at=_ago(61))
    waiting = _run(project, heartbeat_at=_ago(30))
    old_ids = (lost.task_id, waiting.task_id)

    with django_capture_on_commit_callbacks(execute=True):
        report = export_runs_sweep()

    assert (report.requeued, report.failed) == ([lost.pk], [])
    assert _state(lost)[:2] == ("pending", 0) and lost.task_id != old_ids[0]
    assert _state(waiting) == ("pending", 0, old_ids[1], 0, None, "")
    assert sent[-1] == (lost.pk, lost.task_id)


def test_the_sweeper_leaves_fresh_and_finished_runs_alone(project, sent, django_capture_on_commit_callbacks):
    fresh = _run(project, status="running", attempts=1, heartbeat_at=_ago(5), task_id="alive", progress=7, total=9)
    done = _run(project, status="done", attempts=1, heartbeat_at=_ago(10_000), task_id="d", progress=3, total=3)
    failed = _run(project, status="failed", attempts=3, heartbeat_at=_ago(10_000), task_id="f", error="OSError: x")
    legacy_done = _run(project, status="done", heartbeat_at=None, started_at=_ago(10_000))
    before = [_state(r) for r in (fresh, done, failed, legacy_done)]
    sent.clear()

    with django_capture_on_commit_callbacks(execute=True):
        report = export_runs_sweep()

    assert (report.requeued, report.failed) == ([], [])
    assert [_state(r) for r in (fresh, done, failed, legacy_done)] == before
    assert sent == []


def test_a_run_from_before_heartbeats_counts_from_its_start(project, sent, django_capture_on_commit_callbacks):
    run = _run(project, status="running", attempts=0, heartbeat_at=None, started_at=_ago(3600))

    with django_capture_on_commit_callbacks(execute=True):
        report = export_runs_sweep()

    assert report.requeued == [run.pk]
    assert _state(run)[:2] == ("pending", 0)


# --- the page, in eager mode (no worker, no beat) ---------------------------------------------


def test_without_redis_the_page_resumes_a_stale_export_it_shows(project, client, django_capture_on_commit_callbacks):
    admin = project.memberships.get(role="admin").user
    client.force_login(admin)
    run = _run(project, status="running", attempts=1, heartbeat_at=_ago(61), task_id="died-with-the-server", total=3)
    url = reverse("export_page", args=[project.slug])

    with django_capture_on_commit_callbacks(execute=True):
        client.get(url, HTTP_HX_REQUEST="true")
    # (In the test's transaction the resumed export runs when the request is over; without one, as
    # in the demo, it runs at the sweep's commit and this first page already shows it done.)
    page = client.get(url, HTTP_HX_REQUEST="true")

    run.refresh_from_db()
    assert (run.status, run.attempts, run.progress, run.files) == (
        "done",
        2,
        3,
        {"test": "test.jsonl", "readme": "README.md"},
    )
    body = page.content.decode()
    assert f'<span class="badge status-done" id="run-{run.pk}-status">Done</span>' in body
    assert f'<span class="muted" id="run-{run.pk}-attempts">(attempt 2)</span>' in body
    assert 'hx-trigger="every 2s"' not in body


def test_the_page_sweeps_nothing_while_a_run_is_fresh(project, client):
    admin = project.memberships.get(role="admin").user
    client.force_login(admin)
    run = _run(project, status="running", attempts=1, heartbeat_at=_ago(5), task_id="alive", progress=1, total=3)

    page = client.get(reverse("export_page", args=[project.slug]), HTTP_HX_REQUEST="true")

    assert _state(run) == ("running", 1, "alive", 1, 3, "")
    assert 'hx-trigger="every 2s"' in page.content.decode()
