"""The profile country of a scoped project (annotation.scope) decides who reviews and judges a member's
items: set at screening from the task type's list, then changed only by a project admin."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from annotation.models import AnnotatorProfile, Membership
from annotation.services.projects import membership_add
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

LOCKED = (
    "Your country decides who reviews your items: it was set at screening, and only a project admin can "
    "change it (it is Egypt)."
)


def _api(user) -> APIClient:
    client = APIClient()
    client.force_login(user)
    return client


def _profiles() -> list[dict]:
    return list(AnnotatorProfile.objects.order_by("pk").values())


@pytest.mark.parametrize("country", ["Atlantis <b>x</b>", "Jordan", ""])
def test_an_author_cannot_change_their_country_by_the_profile_api(two_countries, country):
    author = two_countries.authors["Egypt"]
    before = _profiles()

    response = _api(author).put("/api/projects/ac/profile/", {"region": "Cairo", "country": country}, format="json")

    assert response.status_code == 400
    assert response.json() == {"detail": LOCKED, "code": "invalid", "errors": {"country": [LOCKED]}}
    assert _profiles() == before


def test_an_author_keeps_their_country_and_edits_the_rest(two_countries):
    author = two_countries.authors["Egypt"]

    response = _api(author).put("/api/projects/ac/profile/", {"region": "Cairo", "country": "Egypt"}, format="json")

    profile = AnnotatorProfile.objects.get(membership__user=author, membership__project=two_countries.project)
    assert response.status_code == 200
    assert (profile.region, profile.country) == ("Cairo", "Egypt")


def test_a_member_without_a_country_picks_one_of_the_project_list(two_countries):
    newcomer = UserFactory(username="ac-newcomer")
    membership_add(project=two_countries.project, user=newcomer, role=Membership.Role.ANNOTATOR)
    client = _api(newcomer)

    before = _profiles()
    refused = client.put("/api/projects/ac/profile/", {"country": "Atlantis <b>x</b>"}, format="json")
    after_refusal = _profiles()
    chosen = client.put("/api/projects/ac/profile/", {"country": "jordan"}, format="json")

    assert refused.status_code == 400
    assert refused.json()["errors"] == {"country": [refused.json()["detail"]]}
    assert refused.json()["detail"].startswith("Atlantis <b>x</b> is not one of this project's countries: KSA, ")
    assert after_refusal == before
    assert (chosen.status_code, chosen.json()["country"]) == (200, "Jordan")


def test_an_admin_changes_a_member_country_to_one_of_the_list(two_countries):
    membership = Membership.objects.get(project=two_countries.project, user=two_countries.authors["Egypt"])
    admin = _api(two_countries.admin)
    url = f"/api/projects/ac/members/{membership.pk}/profile/"

    before = _profiles()
    refused = admin.put(url, {"country": "Atlantis"}, format="json")
    after_refusal = _profiles()
    changed = admin.put(url, {"country": "Jordan"}, format="json")

    assert refused.status_code == 400
    assert list(refused.json()["errors"]) == ["country"]
    assert after_refusal == before
    assert (changed.status_code, changed.json()["country"]) == (200, "Jordan")
    assert AnnotatorProfile.objects.get(membership=membership).country == "Jordan"


def test_an_author_cannot_change_their_country_on_the_profile_page(two_countries):
    author = two_countries.authors["Egypt"]
    client = Client()
    client.force_login(author)
    before = _profiles()

    response = client.post("/p/ac/profile/", {"region": "Cairo", "country": "Jordan"})

    assert response.status_code == 400
    assert LOCKED in [str(m) for m in response.context["messages"]]
    assert _profiles() == before


def test_an_admin_changes_a_member_country_on_the_members_page(two_countries):
    membership = Membership.objects.get(project=two_countries.project, user=two_countries.authors["Egypt"])
    client = Client()
    client.force_login(two_countries.admin)
    url = f"/p/ac/members/{membership.pk}/profile/"
    before = _profiles()

    refused = client.post(url, {"country": "Atlantis"})
    after_refusal = _profiles()
    changed = client.post(url, {"country": "jordan"})

    assert refused.status_code == 400
    assert refused.context["form"].errors["country"][0].startswith("Atlantis is not one of this project's countries")
    assert after_refusal == before
    assert changed.status_code == 302
    assert AnnotatorProfile.objects.get(membership=membership).country == "Jordan"
