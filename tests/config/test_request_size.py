"""The request size limit: too large a body is refused with 413 before anything reads it."""

import io
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import RequestFactory, override_settings
from django.urls import resolve
from rest_framework.test import APIClient

from config.middleware import RequestSizeLimitMiddleware, RequestTooLarge
from tests.api.conftest import db_state

pytestmark = pytest.mark.django_db


def admin_client(user) -> APIClient:
    client = APIClient()
    client.force_login(user)
    return client


@override_settings(GOTONG_MAX_REQUEST_BYTES=1000)
def test_the_limit_is_the_declared_body_size(csqa):
    client = admin_client(csqa.admin)

    def patch(size: int):
        name = "n" * (size - len(json.dumps({"name": ""})))
        return client.patch("/api/projects/demo/", json.dumps({"name": name}), content_type="application/json")

    at_limit, over = patch(1000), patch(1001)

    assert at_limit.status_code == 400  # the name is too long for the project, but the body was read
    assert (over.status_code, over.json()) == (
        413,
        {"detail": "The request is larger than 1,000 bytes.", "code": "request_too_large"},
    )


def test_the_file_imports_take_a_file_of_the_import_limit(csqa):
    client = admin_client(csqa.admin)
    three_mb = b"category,concept\nkuliner," + b"x" * (3 * 1024 * 1024) + b"\n"
    before = db_state()

    response = client.post(
        "/api/projects/demo/concepts/import/", {"file": SimpleUploadedFile("c.csv", three_mb)}, format="multipart"
    )

    assert (response.status_code, response.json()["errors"]) == (
        400,
        {"file": ["Line 2: a cell is longer than 131,072 characters (a concept may have 300)."]},
    )
    assert db_state() == before


def test_a_file_over_the_import_limit_is_refused_unread(csqa):
    client = admin_client(csqa.admin)
    before = db_state()

    response = client.post(
        "/api/projects/demo/concepts/import/",
        {"file": SimpleUploadedFile("c.csv", b"x" * (23 * 1024 * 1024))},
        format="multipart",
    )

    assert (response.status_code, response.json()) == (
        413,
        {"detail": "The request is larger than 22 MB. A file may have at most 20 MB.", "code": "request_too_large"},
    )
    assert db_state() == before


def test_the_import_limit_is_only_for_the_import_routes(csqa):
    client = admin_client(csqa.admin)

    response = client.post(
        "/api/projects/demo/plans/authoring/", {"file": SimpleUploadedFile("c.csv", b"x" * (3 * 1024 * 1024))}
    )

    assert (response.status_code, response.json()["code"]) == (413, "request_too_large")


def _request_without_length(path: str, stream) -> object:
    request = RequestFactory().post(path, content_type="application/json")
    del request.META["CONTENT_LENGTH"]
    request._stream = stream
    request.resolver_match = resolve(path)
    return request


class _Socket(io.RawIOBase):
    """A stream that can't seek, as a server's chunked input."""

    def __init__(self, data: bytes):
        self._data = io.BytesIO(data)

    def readable(self):
        return True

    def readinto(self, buffer):
        chunk = self._data.read(len(buffer))
        buffer[: len(chunk)] = chunk
        return len(chunk)


@override_settings(GOTONG_MAX_REQUEST_BYTES=1000)
def test_a_body_without_length_is_read_only_up_to_the_limit():
    middleware = RequestSizeLimitMiddleware(lambda request: None)
    small = _request_without_length("/api/projects/demo/", _Socket(b"x" * 1000))
    large = _request_without_length("/api/projects/demo/", _Socket(b"x" * 5000))

    middleware.process_view(small, None, (), {})
    middleware.process_view(large, None, (), {})
    with pytest.raises(RequestTooLarge) as refused:
        large.read()

    assert small.read() == b"x" * 1000
    response = middleware.process_exception(large, refused.value)
    assert (response.status_code, json.loads(response.content)["code"]) == (413, "request_too_large")


@override_settings(GOTONG_MAX_REQUEST_BYTES=1000)
def test_a_spooled_body_without_length_is_measured():
    middleware = RequestSizeLimitMiddleware(lambda request: None)
    request = _request_without_length("/p/demo/settings/", io.BytesIO(b"x" * 1001))

    response = middleware.process_view(request, None, (), {})

    assert response.status_code == 413
    assert "The request is larger than 1,000 bytes." in response.content.decode()
