"""Which environment variables an endpoint may name as its API key.

A key is a secret the operator grants to endpoints, never whatever the process holds: only a variable
whose name starts with KEY_PREFIX can be named (GOTONG_LLM_KEY_OPENAI, ...). Without this rule a staff
user could name DJANGO_SECRET_KEY or DATABASE_URL and have it sent as a bearer token to a host of their
choice. The endpoint service refuses other names when an endpoint is saved, and the client checks again
before every call, so a row saved before the rule (or written directly in the database) sends nothing.
"""

from __future__ import annotations

import os
import re

KEY_PREFIX = "GOTONG_LLM_KEY_"
_KEY_NAME = re.compile(r"GOTONG_LLM_KEY_[A-Za-z0-9_]{1,85}")  # Endpoint.api_key_env holds 100 characters


def is_granted_key_name(name: str) -> bool:
    """Whether an endpoint may name this variable (granted by its prefix; set or not in this process)."""
    return bool(_KEY_NAME.fullmatch(name))


def granted_key_names() -> list[str]:
    """The granted variables set (not empty) in this process, by name; never their values."""
    return sorted(name for name, value in os.environ.items() if value and is_granted_key_name(name))
