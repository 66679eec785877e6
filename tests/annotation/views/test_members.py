import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from annotation.models import AnnotatorProfile, Membership
from tests.annotation.views.helpers import db_snapshot
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db
User = get_user_model()


def members_url():
    return reverse("project_members", args=["demo"])


def test_members_page_lists_everyone_with_role_and_code(csqa, client):
    client.force_login(csqa.admin)

    html = client.get(members_url()).content.decode()

    for m in Membership.objects.filter(project=csqa.project):
        assert f'id="member-{m.pk}"' in html
    assert '<td dir="auto">W2</td>' in html
    assert "Admin (you)" in html


def test_add_an_existing_user_as_reviewer(csqa, client):
    siti = UserFactory(username="siti")
    client.force_login(csqa.admin)

    response = client.post(
        members_url(), {"action": "add", "username": "siti", "role": "reviewer", "code": ""}, follow=True
    )

    assert response.redirect_chain == [(members_url(), 302)]
    assert "siti is now qc reviewer." in response.content.decode()
    membership = Membership.objects.get(project=csqa.project, user=siti)
    assert (membership.role, membership.is_active) == ("reviewer", True)


def test_add_a_new_account_with_a_password(csqa, client):
    client.force_login(csqa.admin)

    client.post(
        members_url(),
        {"action": "add", "username": "asep", "role": "annotator", "code": "W9", "password": "Bandung-Hujan-2026"},
    )

    asep = User.objects.get(username="asep")
    assert asep.check_password("Bandung-Hujan-2026")
    assert asep.password.startswith("argon2$")
    assert Membership.objects.filter(project=csqa.project, user=asep, role="annotator", code="W9").count() == 1
    assert AnnotatorProfile.objects.filter(user=asep).count() == 1


def test_unknown_user_without_password_is_refused_and_nothing_changes(csqa, client):
    client.force_login(csqa.admin)
    before = db_snapshot()

    response = client.post(members_url(), {"action": "add", "username": "ghost", "role": "annotator"})

    html = response.content.decode()
    assert response.status_code == 400
    assert "There is no user “ghost”." in html
    assert '<p class="error" role="alert">Give a password to create this account.</p>' in html
    assert db_snapshot() == before


def test_new_account_with_a_taken_name_is_refused(csqa, client):
    client.force_login(csqa.admin)
    before = db_snapshot()

    response = client.post(
        members_url(), {"action": "add", "username": "demo-ann1", "role": "reviewer", "password": "Bandung-Hujan-2026"}
    )

    assert response.status_code == 400
    assert "The user name “demo-ann1” is taken." in response.content.decode()
    assert db_snapshot() == before


def test_weak_password_is_refused(csqa, client):
    client.force_login(csqa.admin)
    before = db_snapshot()

    response = client.post(members_url(), {"action": "add", "username": "asep", "role": "annotator", "password": "123"})

    assert response.status_code == 400
    assert "This password is too short. It must contain at least 8 characters." in response.content.decode()
    assert db_snapshot() == before


def test_change_role_and_deactivate(csqa, client):
    target = Membership.objects.get(project=csqa.project, user=csqa.annotators[2])
    client.force_login(csqa.admin)

    client.post(members_url(), {"action": "role", "membership_id": target.pk, "role": "reviewer"})
    target.refresh_from_db()
    assert target.role == "reviewer"

    response = client.post(members_url(), {"action": "deactivate", "membership_id": target.pk}, follow=True)
    target.refresh_from_db()
    assert target.is_active is False
    assert "demo-ann3 no longer works on this project." in response.content.decode()


def test_admin_cannot_deactivate_or_demote_themselves(csqa, client):
    mine = Membership.objects.get(project=csqa.project, user=csqa.admin)
    client.force_login(csqa.admin)
    before = db_snapshot()

    deactivate = client.post(members_url(), {"action": "deactivate", "membership_id": mine.pk})
    demote = client.post(members_url(), {"action": "role", "membership_id": mine.pk, "role": "annotator"})

    assert deactivate.status_code == 400
    assert "You can&#x27;t remove yourself from the project; ask another admin." in deactivate.content.decode()
    assert demote.status_code == 400
    assert db_snapshot() == before


def test_a_membership_of_another_project_is_not_found(csqa, other_project, client):
    foreign = Membership.objects.get(project=other_project.project, user=other_project.annotators[0])
    client.force_login(csqa.admin)
    before = db_snapshot()

    assert client.post(members_url(), {"action": "deactivate", "membership_id": foreign.pk}).status_code == 404
    assert client.post(members_url(), {"action": "deactivate", "membership_id": "x"}).status_code == 404
    assert client.get(reverse("member_profile", args=["demo", foreign.pk])).status_code == 404
    assert db_snapshot() == before


def test_members_page_is_admin_only(csqa, client):
    client.force_login(csqa.reviewer)
    before = db_snapshot()

    assert client.get(members_url()).status_code == 404
    assert (
        client.post(members_url(), {"action": "add", "username": "demo-reviewer", "role": "admin"}).status_code == 404
    )
    assert db_snapshot() == before


def test_profile_edit(csqa, client):
    target = Membership.objects.get(project=csqa.project, user=csqa.annotators[0])
    client.force_login(csqa.admin)
    url = reverse("member_profile", args=["demo", target.pk])
    data = {
        "native_languages": "su, id",
        "region": "Jawa Barat — Bandung",
        "country": "Indonesia",
        "ethnicity": "Sunda",
        "years_in_region": "21",
        "education": "S1",
    }

    assert client.get(url).status_code == 200
    response = client.post(url, data, follow=True)

    assert response.redirect_chain == [(members_url(), 302)]
    profile = AnnotatorProfile.objects.get(user=csqa.annotators[0])
    assert (profile.native_languages, profile.region, profile.country, profile.ethnicity) == (
        "su, id",
        "Jawa Barat — Bandung",
        "Indonesia",
        "Sunda",
    )
    assert (profile.years_in_region, profile.education) == (21, "S1")
    assert '<td dir="auto">Jawa Barat — Bandung</td>' in response.content.decode()


def test_profile_refuses_negative_years(csqa, client):
    target = Membership.objects.get(project=csqa.project, user=csqa.annotators[0])
    client.force_login(csqa.admin)
    before = db_snapshot()

    response = client.post(reverse("member_profile", args=["demo", target.pk]), {"years_in_region": "-1"})

    assert response.status_code == 400
    assert "Ensure this value is greater than or equal to 0." in response.content.decode()
    assert db_snapshot() == before
