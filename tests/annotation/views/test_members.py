import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from annotation.models import AnnotatorProfile, Invitation, Membership
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


def test_project_admin_invites_and_the_person_joins_by_accepting(csqa, client):
    siti = UserFactory(username="siti")
    client.force_login(csqa.admin)

    response = client.post(
        members_url(), {"action": "add", "username": "siti", "role": "reviewer", "code": ""}, follow=True
    )

    assert response.redirect_chain == [(members_url(), 302)]
    html = response.content.decode()
    assert "Invitation for “siti” recorded: if an account has this name, it joins as soon as its owner accepts." in html
    assert not Membership.objects.filter(project=csqa.project, user=siti).exists()
    invitation = Invitation.objects.get(project=csqa.project, username="siti")
    assert (invitation.role, invitation.status, invitation.invited_by) == ("reviewer", "pending", csqa.admin)

    client.force_login(siti)
    home = client.get(reverse("home")).content.decode()
    assert f'id="invitation-{invitation.pk}"' in home
    joined = client.post(reverse("invitation_accept", args=[invitation.pk]), follow=True)

    assert joined.redirect_chain == [(reverse("project_detail", args=["demo"]), 302)]
    assert "You joined Project demo as qc reviewer." in joined.content.decode()
    membership = Membership.objects.get(project=csqa.project, user=siti)
    assert (membership.role, membership.is_active, membership.is_imported) == ("reviewer", True, False)
    invitation.refresh_from_db()
    assert invitation.status == "accepted"
    assert AnnotatorProfile.objects.filter(membership=membership).count() == 1


def test_the_add_form_answers_the_same_whether_or_not_the_name_exists(csqa, other_project, client):
    client.force_login(csqa.admin)

    existing = client.post(members_url(), {"action": "add", "username": "other-ann1", "role": "annotator"})
    missing = client.post(members_url(), {"action": "add", "username": "ghost", "role": "annotator"})

    assert (existing.status_code, missing.status_code) == (302, 302)
    shown = client.get(members_url()).content.decode()
    assert "Invitation for “ghost” recorded" in shown
    assert list(
        Invitation.objects.filter(project=csqa.project).order_by("username").values_list("username", "status")
    ) == [
        ("ghost", "pending"),
        ("other-ann1", "pending"),
    ]
    assert not Membership.objects.filter(project=csqa.project, user__username="other-ann1").exists()


def test_a_declined_or_withdrawn_invitation_makes_no_member(csqa, client):
    siti = UserFactory(username="siti")
    client.force_login(csqa.admin)
    client.post(members_url(), {"action": "add", "username": "siti", "role": "annotator"})
    client.post(members_url(), {"action": "add", "username": "asep", "role": "annotator"})
    siti_inv = Invitation.objects.get(username="siti")
    asep_inv = Invitation.objects.get(username="asep")

    client.post(members_url(), {"action": "withdraw", "invitation_id": asep_inv.pk})
    client.force_login(siti)
    client.post(reverse("invitation_decline", args=[siti_inv.pk]))
    again = client.post(reverse("invitation_accept", args=[siti_inv.pk]))

    assert again.status_code == 404
    assert dict(Invitation.objects.values_list("username", "status")) == {"siti": "declined", "asep": "withdrawn"}
    assert not Membership.objects.filter(project=csqa.project, user=siti).exists()


def test_nobody_accepts_an_invitation_addressed_to_someone_else(csqa, client):
    UserFactory(username="siti")
    mallory = UserFactory(username="mallory")
    client.force_login(csqa.admin)
    client.post(members_url(), {"action": "add", "username": "siti", "role": "admin"})
    invitation = Invitation.objects.get(username="siti")
    client.force_login(mallory)
    before = db_snapshot()

    response = client.post(reverse("invitation_accept", args=[invitation.pk]))

    assert response.status_code == 404
    assert f"invitation-{invitation.pk}" not in client.get(reverse("home")).content.decode()
    assert db_snapshot() == before


def test_a_project_admin_cannot_create_accounts_and_the_form_has_no_password(csqa, client):
    client.force_login(csqa.admin)
    before = db_snapshot()

    page = client.get(members_url()).content.decode()
    response = client.post(
        members_url(),
        {"action": "add", "username": "asep", "role": "annotator", "code": "W9", "password": "Bandung-Hujan-2026"},
    )

    assert 'name="password"' not in page
    # The password is not a field of their form: it is ignored, and the name is invited like any other.
    assert response.status_code == 302
    assert not User.objects.filter(username="asep").exists()
    assert list(Invitation.objects.values_list("username", "code")) == [("asep", "W9")]
    after = db_snapshot()
    assert {k: v for k, v in after.items() if k != "Invitation"} == {
        k: v for k, v in before.items() if k != "Invitation"
    }


def test_platform_admin_adds_a_new_account_with_a_password(csqa, client):
    csqa.admin.is_staff = True
    csqa.admin.save(update_fields=["is_staff"])
    client.force_login(csqa.admin)

    client.post(
        members_url(),
        {"action": "add", "username": "asep", "role": "annotator", "code": "W9", "password": "Bandung-Hujan-2026"},
    )

    asep = User.objects.get(username="asep")
    assert asep.check_password("Bandung-Hujan-2026")
    assert asep.password.startswith("argon2$")
    assert Membership.objects.filter(project=csqa.project, user=asep, role="annotator", code="W9").count() == 1
    assert AnnotatorProfile.objects.filter(membership__user=asep).count() == 1


def test_platform_admin_attaches_an_existing_account_directly(csqa, client):
    csqa.admin.is_staff = True
    csqa.admin.save(update_fields=["is_staff"])
    siti = UserFactory(username="siti")
    client.force_login(csqa.admin)

    response = client.post(members_url(), {"action": "add", "username": "siti", "role": "reviewer"}, follow=True)

    assert "siti is now qc reviewer." in response.content.decode()
    assert Membership.objects.get(project=csqa.project, user=siti).role == "reviewer"
    assert not Invitation.objects.exists()


def test_new_account_with_a_taken_name_is_refused(csqa, client):
    csqa.admin.is_staff = True
    csqa.admin.save(update_fields=["is_staff"])
    client.force_login(csqa.admin)
    before = db_snapshot()

    response = client.post(
        members_url(), {"action": "add", "username": "demo-ann1", "role": "reviewer", "password": "Bandung-Hujan-2026"}
    )

    assert response.status_code == 400
    assert "The user name “demo-ann1” is taken." in response.content.decode()
    assert db_snapshot() == before


def test_weak_password_is_refused(csqa, client):
    csqa.admin.is_staff = True
    csqa.admin.save(update_fields=["is_staff"])
    client.force_login(csqa.admin)
    before = db_snapshot()

    response = client.post(members_url(), {"action": "add", "username": "asep", "role": "annotator", "password": "123"})

    assert response.status_code == 400
    assert "This password is too short. It must contain at least 8 characters." in response.content.decode()
    assert db_snapshot() == before


def test_user_names_are_validated(csqa, client):
    client.force_login(csqa.admin)
    before = db_snapshot()

    response = client.post(members_url(), {"action": "add", "username": "bad name<script>", "role": "annotator"})

    assert response.status_code == 400
    assert "A user name may contain only letters, digits and @ . + - _." in response.content.decode()
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
    profile = AnnotatorProfile.objects.get(membership=target)
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


def test_a_member_edits_what_they_tell_this_project(csqa, client):
    mine = Membership.objects.get(project=csqa.project, user=csqa.annotators[0])
    client.force_login(csqa.annotators[0])

    response = client.post(reverse("my_profile", args=["demo"]), {"region": "Cianjur", "years_in_region": "9"})

    assert response.status_code == 302
    profile = AnnotatorProfile.objects.get(membership=mine)
    assert (profile.region, profile.years_in_region, profile.education) == ("Cianjur", 9, "")


def test_language_codes_are_validated(csqa, client):
    client.force_login(csqa.admin)
    before = db_snapshot()
    data = {
        "name": "Demo",
        "languages": "id<script> Indonesian ltr",
        "authors_per_concept": "2",
        "answerers_per_item": "5",
        "ambiguity_threshold": "3",
        "judging_mode": "fixed",
        "adaptive_confidence": "99",
        "adaptive_min_judges": "2",
        "plan_seed": "0",
        "max_annotators": "200",
    }

    response = client.post(reverse("project_settings", args=["demo"]), data)

    assert response.status_code == 400
    assert "is not a language code (BCP 47, e.g. id, su, ar, jv-Latn)." in response.content.decode()
    assert db_snapshot() == before
