import json
import re

import pytest
from axes.models import AccessAttempt
from django.conf import settings
from django.contrib.auth import SESSION_KEY
from django.test import Client
from django.urls import reverse

from annotation.models import Project
from annotation.services.projects import user_create

PASSWORD = "Sate-ayam-Madura-77"


@pytest.fixture
def ani(db):
    return user_create(username="ani", password=PASSWORD, email="ani@example.org")


def test_passwords_are_stored_as_argon2id_hashes(ani):
    ani.refresh_from_db()

    assert settings.PASSWORD_HASHERS[0] == "django.contrib.auth.hashers.Argon2PasswordHasher"
    assert ani.password.startswith("argon2$argon2id$")
    assert PASSWORD not in ani.password
    assert ani.check_password(PASSWORD) is True


def test_the_right_password_logs_in(ani, client):
    response = client.post(reverse("login"), {"username": "ani", "password": PASSWORD})

    assert response.status_code == 302
    assert client.session[SESSION_KEY] == str(ani.pk)


def test_repeated_failed_logins_lock_the_account_out_even_with_the_right_password(ani, client):
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        response = client.post(reverse("login"), {"username": "ani", "password": "wrong-guess"})
        assert response.status_code == 200
        assert SESSION_KEY not in client.session

    fifth = client.post(reverse("login"), {"username": "ani", "password": "wrong-guess"})
    assert fifth.status_code == 429

    response = client.post(reverse("login"), {"username": "ani", "password": PASSWORD})

    assert response.status_code == 429
    assert SESSION_KEY not in client.session
    # A refused attempt during the lock-out counts as one more failure.
    assert list(AccessAttempt.objects.values_list("username", "failures_since_start")) == [("ani", 6)]


def test_a_lockout_does_not_affect_another_account(ani, client):
    user_create(username="budi", password=PASSWORD)
    for _ in range(settings.AXES_FAILURE_LIMIT):
        client.post(reverse("login"), {"username": "ani", "password": "wrong-guess"})

    response = client.post(reverse("login"), {"username": "budi", "password": PASSWORD})

    assert response.status_code == 302
    assert client.session[SESSION_KEY] == str(ani.__class__.objects.get(username="budi").pk)


def test_a_login_post_without_csrf_token_is_refused(ani):
    client = Client(enforce_csrf_checks=True)

    response = client.post(reverse("login"), {"username": "ani", "password": PASSWORD})

    assert response.status_code == 403
    assert SESSION_KEY not in client.session


def test_a_logout_post_without_csrf_token_is_refused(ani):
    client = Client(enforce_csrf_checks=True)
    client.force_login(ani)

    response = client.post(reverse("logout"))

    assert response.status_code == 403
    assert client.session[SESSION_KEY] == str(ani.pk)


def test_the_csrf_token_pages_give_htmx_is_accepted(ani):
    client = Client(enforce_csrf_checks=True)
    page = client.get(reverse("login")).content.decode()
    hx_headers = json.loads(re.search(r"<body hx-headers='([^']+)'", page).group(1))

    response = client.post(
        reverse("login"),
        {"username": "ani", "password": PASSWORD},
        headers={"HX-Request": "true", "X-CSRFToken": hx_headers["X-CSRFToken"]},
    )

    assert list(hx_headers) == ["X-CSRFToken"]
    assert response.status_code == 302
    assert client.session[SESSION_KEY] == str(ani.pk)


def test_an_api_post_with_a_session_but_without_csrf_token_is_refused(ani):
    ani.is_staff = True
    ani.save(update_fields=["is_staff"])
    client = Client(enforce_csrf_checks=True)
    client.force_login(ani)

    response = client.post(
        reverse("api-projects"),
        {"name": "Sneaky", "task_type": "csqa", "languages": [{"code": "id", "name": "Indonesian"}]},
        content_type="application/json",
    )

    assert response.status_code == 403
    assert response.json()["detail"] == "CSRF Failed: CSRF cookie not set."
    assert Project.objects.count() == 0
