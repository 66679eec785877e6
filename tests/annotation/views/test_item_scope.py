"""Country scope on the item list's bulk actions and the project-wide pages (annotation.selectors
items_visible_to, whole_project_check): a national reviewer acts on their country's items only, and the
report and dashboard, computed for the whole project, are for admins."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from annotation.models import Membership
from tests.annotation.views.helpers import db_snapshot

pytestmark = pytest.mark.django_db

WHOLE_PROJECT = "This page covers the whole project; you review a part of it. Your items are in the item list."


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _message(response) -> str:
    return [str(m) for m in response.context["messages"]][-1]


def test_a_national_reviewer_cannot_reassign_another_country_item_to_themself(two_countries):
    world = two_countries
    reviewer = world.reviewers["Egypt"]
    jordan = world.items["Jordan"][0]
    client = _client(reviewer)
    before = db_snapshot()

    response = client.post(
        "/p/ac/items/bulk/", {"action": "reassign", "items": [jordan.pk], "to_user": reviewer.pk}, follow=True
    )

    assert _message(response) == f"Nothing was changed. No such item in this project: #{jordan.pk}."
    assert db_snapshot() == before


def test_a_national_reviewer_cannot_approve_another_country_item_in_bulk(two_countries):
    world = two_countries
    egypt, jordan = world.items["Egypt"][0], world.items["Jordan"][0]
    client = _client(world.reviewers["Egypt"])
    before = db_snapshot()

    response = client.post("/p/ac/items/bulk/", {"action": "approve", "items": [egypt.pk, jordan.pk]}, follow=True)

    assert _message(response) == f"Nothing was changed. No such item in this project: #{jordan.pk}."
    assert db_snapshot() == before


def test_a_national_reviewer_approves_their_country_items_in_bulk(two_countries):
    world = two_countries
    egypt = world.items["Egypt"]

    response = _client(world.reviewers["Egypt"]).post(
        "/p/ac/items/bulk/", {"action": "approve", "items": [item.pk for item in egypt]}, follow=True
    )

    assert _message(response) == "Approved 2 items."
    assert [item.status for item in type(egypt[0]).objects.filter(pk__in=[i.pk for i in egypt])] == [
        "approved",
        "approved",
    ]


def test_an_admin_cannot_give_an_item_review_to_a_reviewer_of_another_country(two_countries):
    world = two_countries
    jordan = world.items["Jordan"][0]
    egypt_reviewer = world.reviewers["Egypt"]
    client = _client(world.admin)
    before = db_snapshot()

    response = client.post(
        "/p/ac/items/bulk/", {"action": "reassign", "items": [jordan.pk], "to_user": egypt_reviewer.pk}, follow=True
    )

    assert _message(response) == (
        f"Nothing was changed. Item #{jordan.pk}: {egypt_reviewer.username} does not review items of this "
        "author's country."
    )
    assert db_snapshot() == before


def test_an_admin_gives_an_item_review_to_the_reviewer_of_its_country(two_countries):
    world = two_countries
    jordan = world.items["Jordan"][0]

    response = _client(world.admin).post(
        "/p/ac/items/bulk/",
        {"action": "reassign", "items": [jordan.pk], "to_user": world.reviewers["Jordan"].pk},
        follow=True,
    )

    jordan.refresh_from_db()
    assert _message(response) == "Re-assigned the open work of 1 item (1 to review, 0 to write)."
    assert jordan.reviewer_id == world.reviewers["Jordan"].pk


@pytest.mark.parametrize("url", ["/p/ac/report/", "/p/ac/report.json", "/p/ac/dashboard/", "/p/ac/benchmarks/"])
def test_the_project_wide_pages_are_refused_to_a_national_reviewer(two_countries, url):
    world = two_countries

    refused = _client(world.reviewers["Egypt"]).get(url)
    admitted = _client(world.admin).get(url)

    assert refused.status_code == 403
    assert WHOLE_PROJECT in refused.content.decode()
    assert admitted.status_code == 200


@pytest.mark.parametrize("url", ["/api/projects/ac/report/", "/api/projects/ac/dashboard/"])
def test_the_project_wide_api_is_refused_to_a_national_reviewer(two_countries, url):
    world = two_countries
    api = APIClient()
    api.force_login(world.reviewers["Egypt"])

    response = api.get(url)

    assert response.status_code == 403
    assert response.json() == {"detail": WHOLE_PROJECT, "code": "not_allowed"}


def test_the_project_page_counts_only_the_reviewer_country_items(two_countries):
    world = two_countries

    response = _client(world.reviewers["Egypt"]).get("/p/ac/")

    counts = {status: n for status, _label, n in response.context["status_counts"]}
    assert counts["submitted"] == len(world.items["Egypt"])
    assert response.context["sees_whole_project"] is False


def test_the_dashboard_is_linked_only_where_the_member_may_open_it(two_countries, csqa):
    world = two_countries
    Membership.objects.create(project=csqa.project, user=world.reviewers["Egypt"], role=Membership.Role.REVIEWER)

    html = _client(world.reviewers["Egypt"]).get("/").content.decode()

    assert 'href="/p/demo/dashboard/"' in html
    assert 'href="/p/ac/dashboard/"' not in html
