"""Fixtures for every evaluation test module."""

from tests.evaluation.helpers import eager_tasks, llm_server, llm_server_process  # noqa: F401  (test LLM server)
from tests.evaluation.local_model import local_model  # noqa: F401  (the real SmolLM2 server, once per session)
