"""Session auth needs CSRF on unsafe requests; tokens are obtained with a password and throttled."""

import pytest
from django.middleware.csrf import _get_new_csrf_string
from rest_framework.test import APIClient

from annotation.models import Assignment
from annotation.services.assignments import assignment_plan_authoring
from tests.api.conftest import db_state
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db


def test_unsafe_session_request_without_csrf_token_is_refused(csqa):
    assignment_plan_authoring(project=csqa.project)
    client = APIClient(enforce_csrf_checks=True)
    client.force_login(csqa.annotators[0])
    assignment = Assignment.objects.filter(user=csqa.annotators[0]).order_by("position", "id").first()
    before = db_state()

    answers = [
        client.post("/api/projects/demo/assignments/next/", {"kind": "author"}, format="json"),
        client.put(
            f"/api/projects/demo/assignments/{assignment.pk}/draft/", {"payload": {"question": "x"}}, format="json"
        ),
        client.patch("/api/projects/demo/", {"name": "x"}, format="json"),
    ]

    assert [(r.status_code, r.json()) for r in answers] == [
        (403, {"detail": "CSRF Failed: CSRF cookie not set.", "code": "permission_denied"})
    ] * 3
    assert db_state() == before
    # Reads need no token, and the same write with one goes through: it was the missing token.
    assert client.get("/api/projects/demo/assignments/").status_code == 200
    secret = _get_new_csrf_string()
    client.cookies["csrftoken"] = secret
    allowed = client.post(
        "/api/projects/demo/assignments/next/", {"kind": "author"}, format="json", HTTP_X_CSRFTOKEN=secret
    )
    assert (allowed.status_code, allowed.json()["id"]) == (200, assignment.pk)


def test_token_is_issued_for_the_right_password_only(csqa):
    client = APIClient()

    wrong = client.post("/api/auth/token/", {"username": "demo-ann1", "password": "nope"}, format="json")
    right = client.post("/api/auth/token/", {"username": "demo-ann1", "password": PASSWORD}, format="json")
    again = client.post("/api/auth/token/", {"username": "demo-ann1", "password": PASSWORD}, format="json")

    assert (wrong.status_code, wrong.json()) == (
        400,
        {
            "detail": "Unable to log in with these credentials.",
            "code": "invalid",
            "errors": {"non_field_errors": ["Wrong user name or password."]},
        },
    )
    assert (right.status_code, again.status_code) == (200, 200)
    assert set(right.json()) == {"token", "expiry"}
    # Every request issues a new token (the key is shown once); both work.
    tokens = [right.json()["token"], again.json()["token"]]
    assert tokens[0] != tokens[1]
    assert [len(token) for token in tokens] == [64, 64]
    for token in tokens:
        authed = APIClient()
        authed.credentials(HTTP_AUTHORIZATION=f"Token {token}")
        assert [p["slug"] for p in authed.get("/api/projects/").json()["results"]] == ["demo"]


def test_repeated_failed_token_requests_are_locked_out(csqa, settings):
    settings.AXES_FAILURE_LIMIT = 3
    client = APIClient()

    failures = [
        client.post("/api/auth/token/", {"username": "demo-ann1", "password": f"bad{n}"}, format="json").status_code
        for n in range(3)
    ]
    locked = client.post("/api/auth/token/", {"username": "demo-ann1", "password": PASSWORD}, format="json")

    # The failure that reaches the limit is already answered with the lockout.
    assert failures == [400, 400, 429]
    assert (locked.status_code, locked.json()) == (
        429,
        {"detail": "Too many failed logins; try again later.", "code": "locked_out"},
    )


def test_missing_credentials_fields_are_reported(db):
    response = APIClient().post("/api/auth/token/", {"username": "x"}, format="json")

    assert (response.status_code, response.json()) == (
        400,
        {"detail": "Invalid input.", "code": "invalid", "errors": {"password": ["This field is required."]}},
    )
