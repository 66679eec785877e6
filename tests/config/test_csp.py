"""The Content-Security-Policy production sends: scripts and styles from the site only, nothing inline."""

import json

import pytest

from tests.config.test_deploy_checks import PRODUCTION, database_url, manage

# Run inside a production-settings process. The manifest storage needs a collectstatic run to render
# `{% static %}`; the plain storage stands in for it, and nothing else is changed.
REQUEST = """
import json
from django.test import Client, override_settings

plain = {"default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
         "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}}
with override_settings(STORAGES=plain):
    client = Client(headers={"host": "gotong.example.org"})
    answers = [client.get(path, secure=True) for path in ("/accounts/login/", "/api/projects/")]
print(json.dumps([[r.status_code, r.get("Content-Security-Policy")] for r in answers]))
"""


def directives(header: str) -> dict[str, list[str]]:
    return {name: values for name, *values in (part.split() for part in header.split(";") if part.strip())}


@pytest.mark.django_db
def test_production_responses_carry_a_policy_without_inline_scripts():
    result = manage("shell", "-c", REQUEST, DATABASE_URL=database_url(), **PRODUCTION)

    assert result.returncode == 0, result.stderr
    (page_status, page_policy), (api_status, api_policy) = json.loads(result.stdout.strip().splitlines()[-1])
    assert (page_status, api_status) == (200, 401)
    assert page_policy == api_policy
    assert directives(page_policy) == {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "connect-src": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
        "base-uri": ["'self'"],
        "object-src": ["'none'"],
    }
    assert "'unsafe-inline'" not in page_policy
    assert "'unsafe-eval'" not in page_policy
