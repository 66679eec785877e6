"""The browsable API documentation at /api/docs/: Swagger UI from this site's static files, no CDN."""

import re

import pytest
from django.contrib.staticfiles import finders
from django.test import Client

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

STATIC_PREFIX = "/static/"


def _referenced(html: str) -> list[str]:
    return re.findall(r'<(?:script|link)\b[^>]*\b(?:src|href)="([^"]+)"', html)


def test_the_docs_page_loads_swagger_ui_from_local_static_files_only():
    client = Client()
    client.force_login(UserFactory(username="reader"))

    response = client.get("/api/docs/")

    assert response.status_code == 200
    html = response.content.decode()
    assert '<div id="swagger-ui"></div>' in html
    assert "<style" not in html and "<script>" not in html  # the policy refuses inline code
    referenced = _referenced(html)
    assert referenced == [
        "/static/drf_spectacular_sidecar/swagger-ui-dist/favicon-32x32.png",
        "/static/drf_spectacular_sidecar/swagger-ui-dist/swagger-ui.css",
        "/static/css/api_docs.css",
        "/static/drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js",
        "/static/drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-standalone-preset.js",
        "/api/docs/?script=",
    ]
    for url in referenced[:-1]:
        assert finders.find(url.removeprefix(STATIC_PREFIX)) is not None, url
        assert client.get(url).status_code == 200, url


def test_the_init_script_is_a_separate_file_pointing_at_the_schema():
    client = Client()
    client.force_login(UserFactory(username="reader"))

    response = client.get("/api/docs/", {"script": ""})

    assert (response.status_code, response["Content-Type"]) == (200, "application/javascript")
    assert 'url: "/api/schema/"' in response.content.decode()
    assert "'unsafe-inline'" not in response["Content-Security-Policy"]


def test_an_anonymous_visitor_is_sent_to_the_login_page():
    response = Client().get("/api/docs/")

    assert (response.status_code, response["Location"]) == (302, "/accounts/login/?next=/api/docs/")
