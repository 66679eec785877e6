"""API tokens: stored as digests, expiring, revoked by logout and by a password change."""

import hashlib
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from knox.models import AuthToken
from knox.settings import CONSTANTS
from rest_framework.test import APIClient

from annotation.api.services import auth_token_obtain
from tests.conftest import PASSWORD
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "Rendang-Padang-2027"


def _obtain(username: str, password: str = PASSWORD) -> dict:
    response = APIClient().post("/api/auth/token/", {"username": username, "password": password}, format="json")
    assert response.status_code == 200
    return response.json()


def _with_token(token: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client


def _projects_status(token: str) -> int:
    return _with_token(token).get("/api/projects/").status_code


def test_only_a_digest_of_the_token_is_stored(db):
    user = UserFactory(username="ani")

    token = _obtain("ani")["token"]

    row = AuthToken.objects.filter(user=user).values().get()
    assert row["digest"] == hashlib.sha512(token.encode()).hexdigest()
    assert [name for name, value in row.items() if token in str(value)] == []
    assert _projects_status(token) == 200


def test_a_token_expires_after_the_configured_time(db, settings):
    settings.REST_KNOX = {**settings.REST_KNOX, "TOKEN_TTL": timedelta(hours=2)}
    UserFactory(username="ani")
    before = timezone.now()

    body = _obtain("ani")

    assert before + timedelta(hours=2) <= parse_datetime(body["expiry"]) <= timezone.now() + timedelta(hours=2)


def test_the_default_lifetime_is_thirty_days(db):
    user = UserFactory(username="ani")

    issued = auth_token_obtain(user=user)

    assert timedelta(days=30) - timedelta(minutes=1) < issued.expiry - timezone.now() <= timedelta(days=30)


def test_an_expired_token_is_refused(db):
    user = UserFactory(username="ani")
    token = _obtain("ani")["token"]
    AuthToken.objects.filter(user=user).update(expiry=timezone.now() - timedelta(seconds=1))

    response = _with_token(token).get("/api/projects/")

    assert (response.status_code, response.json()) == (
        401,
        {"detail": "Invalid token.", "code": "authentication_failed"},
    )
    assert response["WWW-Authenticate"] == "Token"
    assert AuthToken.objects.filter(user=user).count() == 0


def test_logout_revokes_the_token_of_the_request_only(db):
    user = UserFactory(username="ani")
    first, second = _obtain("ani")["token"], _obtain("ani")["token"]

    response = _with_token(first).post("/api/auth/logout/")

    assert response.status_code == 204
    assert _projects_status(first) == 401
    assert _projects_status(second) == 200
    assert AuthToken.objects.filter(user=user).count() == 1


def test_logout_without_a_token_is_refused(db):
    user = UserFactory(username="ani")
    _obtain("ani")
    session = APIClient()
    session.force_login(user)

    answers = [APIClient().post("/api/auth/logout/"), session.post("/api/auth/logout/")]

    assert [r.status_code for r in answers] == [401, 401]
    assert AuthToken.objects.filter(user=user).count() == 1


def test_a_password_change_revokes_every_token_of_that_user(db):
    ani, budi = UserFactory(username="ani"), UserFactory(username="budi")
    tokens = [_obtain("ani")["token"], _obtain("ani")["token"]]
    other = _obtain("budi")["token"]

    ani.set_password(NEW_PASSWORD)
    ani.save()

    assert [_projects_status(token) for token in tokens] == [401, 401]
    assert _projects_status(other) == 200
    assert list(AuthToken.objects.values_list("user__username", flat=True)) == ["budi"]
    assert _projects_status(_obtain("ani", NEW_PASSWORD)["token"]) == 200
    assert budi.auth_token_set.count() == 1


def test_a_password_changed_in_the_admin_revokes_the_tokens(db):
    ani = UserFactory(username="ani")
    token = _obtain("ani")["token"]
    boss = UserFactory(username="boss", is_staff=True, is_superuser=True)
    admin = Client()
    admin.force_login(boss)

    response = admin.post(
        f"/django-admin/auth/user/{ani.pk}/password/",
        {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD, "usable_password": "true"},
    )

    assert response.status_code == 302
    ani.refresh_from_db()
    assert ani.check_password(NEW_PASSWORD)
    assert _projects_status(token) == 401


def test_a_disabled_password_revokes_the_tokens(db):
    ani = UserFactory(username="ani")
    token = _obtain("ani")["token"]

    ani.set_unusable_password()
    ani.save(update_fields=["password"])

    assert _projects_status(token) == 401


def test_saving_a_user_without_a_new_password_keeps_the_tokens(db):
    ani = UserFactory(username="ani")
    token = _obtain("ani")["token"]

    # A page login saves last_login; an edit saves other fields: neither is a password change.
    assert Client().post("/accounts/login/", {"username": "ani", "password": PASSWORD}).status_code == 302
    ani.refresh_from_db()
    ani.email = "ani@example.org"
    ani.save()

    assert _projects_status(token) == 200
    assert AuthToken.objects.filter(user=ani).count() == 1


def test_expired_tokens_are_deleted_by_the_periodic_task_not_by_requests(db):
    from annotation.tasks import delete_expired_tokens

    user = UserFactory(username="ani")
    live, old = _obtain("ani")["token"], _obtain("ani")["token"]
    AuthToken.objects.filter(token_key=old[: CONSTANTS.TOKEN_KEY_LENGTH]).update(
        expiry=timezone.now() - timedelta(seconds=1)
    )

    assert _projects_status(live) == 200
    assert AuthToken.objects.filter(user=user).count() == 2  # a request touches only its own token
    assert delete_expired_tokens() == 1
    assert list(AuthToken.objects.filter(user=user).values_list("token_key", flat=True)) == [
        live[: CONSTANTS.TOKEN_KEY_LENGTH]
    ]
