"""The environment of the key tests: exactly the granted variables a test names, and a fake secret key."""

from __future__ import annotations

import os

import pytest

from evaluation.llm.keys import KEY_PREFIX

SECRET = "s3cret-django-key-not-for-endpoints"
DATABASE = "postgres://gotong:db-password@db.internal:5432/gotong"


@pytest.fixture
def key_env(monkeypatch):
    """Only GOTONG_LLM_KEY_OPENAI and GOTONG_LLM_KEY_LOCAL are granted; the process's secrets hold known values."""
    for name in [n for n in os.environ if n.startswith(KEY_PREFIX)]:
        monkeypatch.delenv(name)
    monkeypatch.setenv("GOTONG_LLM_KEY_OPENAI", "sk-granted-openai")
    monkeypatch.setenv("GOTONG_LLM_KEY_LOCAL", "sk-granted-local")
    monkeypatch.setenv("DJANGO_SECRET_KEY", SECRET)
    monkeypatch.setenv("DATABASE_URL", DATABASE)
    return monkeypatch


REFUSAL = (
    "Only an environment variable granted to endpoints can hold a key: its name starts with GOTONG_LLM_KEY_. "
    "Set here: GOTONG_LLM_KEY_LOCAL, GOTONG_LLM_KEY_OPENAI."
)
