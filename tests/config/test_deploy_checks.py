"""Checks that need a fresh Django process: other settings modules, or commands that read the whole project."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import connection

ROOT = Path(__file__).resolve().parents[2]
STRONG_KEY = "k3Y-for-the-deploy-check-only_8f2c9a7e4b1d6f0a3c5e7b9d1f2a4c6e8b0d"


def database_url() -> str:
    """The test database, so the child process checks migrations against a migrated schema."""
    s = connection.settings_dict
    if connection.vendor == "postgresql":
        return f"postgres://{s['USER']}:{s['PASSWORD']}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"
    return "sqlite://:memory:"


def manage(*args: str, **env: str) -> subprocess.CompletedProcess:
    child_env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    child_env.update(env)
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=child_env, capture_output=True, text=True, timeout=120
    )


PRODUCTION = {
    "DJANGO_SETTINGS_MODULE": "config.settings.production",
    "DJANGO_SECRET_KEY": STRONG_KEY,
    "DJANGO_ALLOWED_HOSTS": "gotong.example.org",
}


@pytest.mark.django_db
def test_check_deploy_passes_with_production_settings():
    result = manage("check", "--deploy", "--fail-level", "WARNING", DATABASE_URL=database_url(), **PRODUCTION)

    assert result.stderr == ""
    assert result.stdout == "System check identified no issues (0 silenced).\n"
    assert result.returncode == 0


@pytest.mark.django_db
def test_check_deploy_fails_when_https_is_switched_off():
    result = manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        DATABASE_URL=database_url(),
        DJANGO_SECURE_SSL_REDIRECT="false",
        DJANGO_SECURE_COOKIES="false",
        **PRODUCTION,
    )

    assert result.returncode == 1
    assert "security.W008" in result.stderr
    assert "security.W012" in result.stderr
    assert "security.W016" in result.stderr


def test_production_settings_refuse_to_start_without_a_secret_key():
    env = {**PRODUCTION, "DJANGO_SECRET_KEY": ""}

    result = manage("check", **env)

    assert result.returncode == 1
    assert "ImproperlyConfigured: Set DJANGO_SECRET_KEY for production" in result.stderr


@pytest.mark.django_db
def test_models_and_migrations_agree():
    result = manage(
        "makemigrations",
        "--check",
        "--dry-run",
        DATABASE_URL=database_url(),
        DJANGO_SETTINGS_MODULE="config.settings.test",
    )

    assert (result.returncode, result.stdout, result.stderr) == (0, "No changes detected\n", "")
