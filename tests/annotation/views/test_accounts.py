import pytest
from django.urls import reverse

from annotation.models import Membership
from annotation.services.projects import membership_deactivate
from tests.conftest import PASSWORD
from tests.factories import UserFactory, make_csqa_project

pytestmark = pytest.mark.django_db


def test_login_page_renders_the_form(client):
    response = client.get(reverse("login"))

    html = response.content.decode()
    assert response.status_code == 200
    assert '<form method="post" action="/accounts/login/" data-ctrl-enter>' in html
    assert 'name="username"' in html
    assert 'name="password"' in html


def test_login_with_the_right_password_goes_home(client):
    UserFactory(username="siti")

    response = client.post(reverse("login"), {"username": "siti", "password": PASSWORD})

    assert response.status_code == 302
    assert response.url == "/"
    assert client.get("/").status_code == 200


def test_wrong_password_shows_the_error_and_logs_nobody_in(client):
    UserFactory(username="siti")

    response = client.post(reverse("login"), {"username": "siti", "password": "wrong"})

    assert response.status_code == 200
    assert "Please enter a correct username and password." in response.content.decode()
    assert client.get("/").status_code == 302


def test_five_failures_lock_the_account_with_a_clear_message(client):
    UserFactory(username="siti")
    for _ in range(4):
        assert client.post(reverse("login"), {"username": "siti", "password": "wrong"}).status_code == 200

    locked = client.post(reverse("login"), {"username": "siti", "password": "wrong"})
    still_locked = client.post(reverse("login"), {"username": "siti", "password": PASSWORD})

    assert locked.status_code == 429
    html = locked.content.decode()
    assert "<h1>Too many failed logins</h1>" in html
    assert 'Logging in as <strong dir="auto">siti</strong> is blocked after 5 failed attempts.' in html
    assert still_locked.status_code == 429
    assert client.get("/").status_code == 302


def test_logout_needs_post(client):
    client.force_login(UserFactory())

    assert client.get(reverse("logout")).status_code == 405
    assert client.get("/").status_code == 200
    assert client.post(reverse("logout")).url == "/accounts/login/"
    assert client.get("/").status_code == 302


def test_anonymous_home_redirects_to_login(client):
    response = client.get("/")

    assert (response.status_code, response.url) == (302, "/accounts/login/?next=/")


def test_home_lists_only_my_active_projects_with_my_role(client):
    mine = make_csqa_project(slug="mine", annotators=1)
    left = make_csqa_project(slug="left", annotators=1)
    make_csqa_project(slug="foreign", annotators=1)
    me = mine.annotators[0]
    membership_deactivate(membership=Membership.objects.get(project=left.project, user=left.annotators[0]))
    Membership.objects.create(project=left.project, user=me, role=Membership.Role.REVIEWER, is_active=False)
    client.force_login(me)

    html = client.get("/").content.decode()

    assert '<a href="/p/mine/" dir="auto">Project mine</a>' in html
    assert "/p/left/" not in html
    assert "/p/foreign/" not in html
    assert '<span class="badge role-annotator">Annotator</span>' in html
    assert '<a class="button primary" href="/p/mine/author/">Open my queue</a>' in html
    assert "New project" not in html


def test_staff_see_the_new_project_button(client):
    client.force_login(UserFactory(is_staff=True))

    html = client.get("/").content.decode()

    assert '<a class="button primary" href="/projects/new/">New project</a>' in html
    assert "You are not a member of any project yet." in html
