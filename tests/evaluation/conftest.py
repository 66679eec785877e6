"""Fixtures for every evaluation test module."""

import pytest

from tests.celery_workers import RedisServer
from tests.evaluation.helpers import eager_tasks, llm_server, llm_server_process  # noqa: F401  (test LLM server)
from tests.evaluation.local_model import local_model  # noqa: F401  (the real SmolLM2 server, once per session)


@pytest.fixture
def redis_server(tmp_path):
    """A Redis of the test's own, which the test may kill and start again (broker outages)."""
    server = RedisServer(tmp_path)
    server.start()
    try:
        yield server
    finally:
        server.kill()
