"""Fixtures and helpers of the evaluation tests: the test LLM server, endpoints, runs."""

from __future__ import annotations

import contextlib
import time

import pytest

from evaluation.models import Endpoint, Run
from evaluation.services.endpoints import endpoint_create
from tests.evaluation.llm_server import LLMServer


@pytest.fixture(scope="session")
def llm_server_process():
    server = LLMServer()
    yield server
    server.stop()


@pytest.fixture
def llm_server(llm_server_process):
    """The shared test server, configured for plain replies and with its counters zeroed."""
    llm_server_process.configure()
    return llm_server_process


def make_endpoint(server: LLMServer, *, name: str = "test", **extra) -> Endpoint:
    fields = {"base_url": server.url, "model": "test-model", "is_local": True, "timeout_seconds": 5, **extra}
    return endpoint_create(name=name, **fields)


def wait_for(predicate, timeout: float, what: str, details=lambda: ""):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"Timed out after {timeout}s waiting for {what}\n{details()}")


def run_finished(run: Run) -> bool:
    run.refresh_from_db()
    return run.status in (Run.Status.DONE, Run.Status.FAILED, Run.Status.CANCELLED)


@pytest.fixture
def eager_tasks(settings):
    """Tasks run inside this process (no REDIS_URL), whatever an earlier test left on the Celery app
    (tests/qc's broker fixture can restore task_always_eager=False when it was the app's first reader)."""
    from config.celery import app

    settings.CELERY_TASK_ALWAYS_EAGER = True
    previous = app.conf.task_always_eager
    app.conf.task_always_eager = True
    try:
        yield settings
    finally:
        app.conf.task_always_eager = previous


@contextlib.contextmanager
def runs_stay_pending():
    """Messages go to an in-memory broker nobody reads: a created or resumed run stays pending."""
    from config.celery import app

    keys = ("broker_url", "task_always_eager")
    previous = {key: app.conf[key] for key in keys}
    app.conf.update(broker_url="memory://", task_always_eager=False)
    app._pool = None
    app.__dict__.pop("amqp", None)
    try:
        yield
    finally:
        app.conf.update(previous)
        app._pool = None
        app.__dict__.pop("amqp", None)
