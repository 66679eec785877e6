"""Exports whose worker dies: real Celery worker processes (prefork, with beat) on Redis and PostgreSQL.

Each scenario starts `celery -A config worker -B` as a subprocess against the test database, starts an
export slowed down to a few seconds (config/settings/test_worker.py), kills the worker half-way with
SIGKILL and expects the export to finish anyway, with the whole file, within the sweeper's bounds.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

import pytest
import redis
from django.db import connection
from django.urls import reverse

from config.celery import app
from qc.exports.runs import export_run_create, export_run_dir
from qc.models import ExportRun
from tests.celery_workers import REDIS, WorkerPool, use_broker
from tests.qc.helpers import add_judgment, make_item, make_project

pytestmark = [pytest.mark.celery, pytest.mark.django_db(transaction=True)]

ITEMS = 120
CHUNK = 6  # progress (and a pause) after every 6 items: 20 steps
DELAY_MS = 250  # about 5 s for the whole export
HEARTBEAT, STALE, SWEEP = 1, 3, 2  # seconds
EXPORT_SECONDS = ITEMS / CHUNK * DELAY_MS / 1000
# After the kill: the heartbeat goes stale, a sweep (or the redelivered message) notices, the export
# runs again from the start. Plus a worker start-up and scheduling slack.
RESUME_BOUND = STALE + SWEEP + EXPORT_SECONDS + 15


class Workers(WorkerPool):
    """Export workers (with beat by default), slowed down and with short heartbeat and sweep periods."""

    def __init__(self, tmp_path: Path, media: Path):
        super().__init__(
            tmp_path,
            env={
                "GOTONG_MEDIA_ROOT": str(media),
                "GOTONG_RUN_HEARTBEAT_SECONDS": str(HEARTBEAT),
                "GOTONG_RUN_STALE_SECONDS": str(STALE),
                "GOTONG_SWEEP_SECONDS": str(SWEEP),
                "GOTONG_EXPORT_CHUNK_SIZE": str(CHUNK),
                "GOTONG_EXPORT_TEST_DELAY_MS": str(DELAY_MS),
            },
            log_tail=4000,
        )

    def start(self, name: str, *, beat: bool = True) -> subprocess.Popen:
        return super().start(name, beat=beat)


def _children(pid: int) -> set[int]:
    out = subprocess.run(["ps", "-o", "pid=", "--ppid", str(pid)], capture_output=True, text=True, check=False)
    return {int(line) for line in out.stdout.split()}


@pytest.fixture
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    return settings.MEDIA_ROOT


@pytest.fixture
def broker(settings):
    """This process sends tasks to Redis (the real workers take them) instead of running them eagerly."""
    assert REDIS.startswith("redis://"), REDIS
    store = redis.Redis.from_url(REDIS)
    store.flushdb()  # this test's own Redis db: no messages left from an earlier run
    try:
        with use_broker(settings, REDIS):
            yield store
    finally:
        store.flushdb()  # the killed worker's unacknowledged message must not reach a later test
        store.close()


@pytest.fixture
def workers(tmp_path, media, broker):
    assert connection.vendor == "postgresql", "these tests need PostgreSQL (set DATABASE_URL)"
    pool = Workers(tmp_path, media)
    try:
        yield pool
    finally:
        pool.kill_all()


@pytest.fixture
def project():
    project, people = make_project(slug="faults", annotators=3)
    for i in range(ITEMS):
        item = make_item(project, people[i % 3], question=f"Pertanyaan {i}", answer="B", external_id=f"q{i:03d}")
        add_judgment(item, people[(i + 1) % 3], "B")
    return project


def _wait(predicate, timeout: float, what: str, workers: Workers):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"Timed out after {timeout}s waiting for {what}\n{workers.output()}")


def _ready_after(workers: Workers, since: float) -> float:
    """Seconds from `since` until the last started worker said it is ready (0.0 while it has not)."""
    if " ready." not in workers.logs[-1].read_text(errors="replace"):
        return 0.0
    return max(time.monotonic() - since, 1e-6)


def _progress(run: ExportRun) -> int:
    run.refresh_from_db()
    return run.progress if run.status == "running" else 0


def _finished(run: ExportRun) -> bool:
    run.refresh_from_db()
    return run.status in ("done", "failed")


def _pool_pid(worker: subprocess.Popen, workers: Workers) -> int:
    """The pool process running the export (the worker's other child is beat)."""

    def running_export():
        active = app.control.inspect(timeout=2.0, limit=1).active() or {}
        for tasks in active.values():
            for task in tasks:
                if task["name"] == "qc.export_gold" and task.get("worker_pid"):
                    return task["worker_pid"]
        return None

    pid = _wait(running_export, 15, "the worker to report the export as active", workers)
    assert pid in _children(worker.pid)
    return pid


def _assert_exported_in_full(run: ExportRun, client, workers: Workers) -> None:
    run.refresh_from_db()
    assert (run.status, run.error, run.progress, run.total) == ("done", "", ITEMS, ITEMS), workers.output()
    assert run.files == {"test": "test.jsonl", "readme": "README.md"}
    folder = export_run_dir(run)
    assert sorted(p.name for p in folder.iterdir()) == ["README.md", "test.jsonl"]  # no attempt left behind
    lines = (folder / "test.jsonl").read_text("utf-8").splitlines()
    assert len(lines) == ITEMS
    assert len(set(lines)) == ITEMS
    # The page the browser polls shows it done and stops polling.
    client.force_login(run.project.memberships.get(role="admin").user)
    body = client.get(reverse("export_page", args=[run.project.slug]), HTTP_HX_REQUEST="true").content.decode()
    assert f'<span class="badge status-done" id="run-{run.pk}-status">Done</span>' in body
    assert f'<progress value="{ITEMS}" max="{ITEMS}"></progress> {ITEMS} of {ITEMS} items' in body
    assert f'<a href="/p/{run.project.slug}/export/{run.pk}/test.jsonl" download>test.jsonl</a>' in body
    assert 'hx-trigger="every 2s"' not in body


@pytest.mark.parametrize("beat", [True, False], ids=["with-beat", "redelivery-alone"])
def test_killing_the_pool_process_mid_export_resumes_it(workers, project, client, beat):
    # Without beat only the redelivered message (acks_late, reject_on_worker_lost) can resume the run:
    # the very case that used to see "running" and return.
    worker = workers.start("faults1", beat=beat)
    run = export_run_create(project=project, fmt="jsonl", user=None)
    message = run.task_id

    at_kill = _wait(lambda: _progress(run), 30, "the export to make progress", workers)
    os.kill(_pool_pid(worker, workers), signal.SIGKILL)
    killed_at = time.monotonic()

    _wait(lambda: _finished(run), RESUME_BOUND, "the export to finish after the kill", workers)
    elapsed = time.monotonic() - killed_at
    assert 0 < at_kill < ITEMS
    assert run.attempts == 2, workers.output()
    assert worker.poll() is None  # the worker itself lived on and replaced its pool process
    assert elapsed < RESUME_BOUND
    if not beat:  # the original message took its run over again (a sweep would have sent a new one)
        assert run.task_id == message, workers.output()
    _assert_exported_in_full(run, client, workers)


def test_killing_the_whole_worker_mid_export_lets_the_next_worker_resume_it(workers, project, client):
    first = workers.start("faults1")
    run = export_run_create(project=project, fmt="jsonl", user=None)

    at_kill = _wait(lambda: _progress(run), 30, "the export to make progress", workers)
    workers.kill(first)  # main process, pool process and beat: the message stays unacknowledged
    killed_at = time.monotonic()
    run.refresh_from_db()
    assert (run.status, run.attempts) == ("running", 1)
    workers.start("faults2")
    # The bound is for the engine (stale heartbeat, sweep, the export again), not for a worker process
    # importing Django, which on a loaded machine alone took longer than the bound's slack.
    started_up = _wait(lambda: _ready_after(workers, killed_at), 120, "the second worker to start", workers)

    _wait(lambda: _finished(run), RESUME_BOUND, "the export to finish in the second worker", workers)
    elapsed = time.monotonic() - killed_at - started_up
    assert 0 < at_kill < ITEMS
    assert run.attempts == 2, workers.output()
    assert elapsed < RESUME_BOUND
    _assert_exported_in_full(run, client, workers)
