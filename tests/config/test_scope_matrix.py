"""Country scope on every route: a national reviewer for Egypt tries every route of the URL configuration
with the objects of a Jordan author (item, assignment, judgment, membership, ...). Routes come from the
resolver, so a new page or endpoint is covered the day it is added: one that takes an object answers 403
or 404, one that takes only the project never shows a Jordan item, and no Jordan row changes."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from rest_framework.test import APIClient

from annotation.models import AnnotatorProfile, Assignment, Item, ItemVersion, Judgment, Membership
from annotation.services.members import invitation_create
from qc.models import ExportRun, Review
from tests.config.test_url_matrix import _PARAM, METHODS, _llm_call, _routes, _url
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

# Routes the walk does not fill, reviewed: they take no item (the site's model endpoints, staff only).
NO_ITEM_ROUTES = frozenset({"endpoint_edit", "endpoint_test"})
# Routes left out of the walk, reviewed: they end the walker's session and take no item.
SESSION_ROUTES = frozenset({"logout", "api-logout"})


def walked_routes():
    return [
        (route, pattern)
        for route, pattern in _routes()
        if not route.startswith("django-admin/") and pattern.name not in SESSION_ROUTES
    ]


def jordan_state(world) -> dict[str, list[dict]]:
    """Every row about the Jordan author and their items: equal states mean nothing of theirs changed."""
    author = world.authors["Jordan"]
    items = Item.objects.filter(author=author)
    return {
        "items": list(items.order_by("pk").values()),
        "versions": list(ItemVersion.objects.filter(item__in=items).order_by("pk").values()),
        "reviews": list(Review.objects.filter(item__in=items).order_by("pk").values()),
        "judgments": list(Judgment.objects.filter(item__in=items).order_by("pk").values()),
        "assignments": list(Assignment.objects.filter(user=author).order_by("pk").values()),
        "membership": list(Membership.objects.filter(user=author).values()),
        "profile": list(AnnotatorProfile.objects.filter(membership__user=author).values()),
    }


@pytest.fixture
def scope_world(two_countries):
    world = two_countries
    item = world.items["Jordan"][0]
    UserFactory(username="layla")
    values = {
        "slug": world.project.slug,
        "item_id": item.pk,
        "assignment_id": item.assignment_id,
        "membership_id": Membership.objects.get(project=world.project, user=world.authors["Jordan"]).pk,
        "concept_id": item.concept_id,
        "judgment_id": Judgment.objects.create(
            project=world.project,
            item=item,
            user=world.authors["Egypt"],
            item_author=item.author,
            kind="answer",
            value={"choice": "A"},
            flags={"error": True, "correction": "يقوم أحمد بتحضير الفول"},
        ).pk,
        "run_id": ExportRun.objects.create(project=world.project, format="jsonl", path="exports/ac/run-x").pk,
        "name": "test.jsonl",
        "invitation_id": invitation_create(
            project=world.project, username="layla", role="annotator", invited_by=world.admin
        ).pk,
        "call_id": _llm_call(world.project).pk,
    }
    return world, values


def _markers(world, country: str) -> list[str]:
    """The premises of the country's items, as a page writes them and as an escaped JSON string."""
    premises = [item.current_version.payload["premise"] for item in world.items[country]]
    return premises + [json.dumps(p)[1:-1] for p in premises]


def test_every_route_is_walked_or_reviewed(scope_world):
    _, values = scope_world
    unfilled = {
        pattern.name for route, pattern in walked_routes() if set(_PARAM.findall(route)) - set(values)
    } - NO_ITEM_ROUTES

    assert unfilled == set(), f"give the scope walk an object for these routes, or review them: {sorted(unfilled)}"


def test_a_national_reviewer_reaches_no_item_of_another_country_on_any_route(scope_world):
    world, values = scope_world
    reviewer = world.reviewers["Egypt"]
    jordan = world.items["Jordan"]
    page, api = Client(), APIClient()
    page.force_login(reviewer)
    api.force_login(reviewer)
    # What each write would need to act on a Jordan item: a bulk re-assign to the reviewer, a decision.
    body = {
        "action": "reassign",
        "items": [item.pk for item in jordan],
        "to_user": reviewer.pk,
        "decision": "approve",
        "version_id": jordan[0].current_version_id,
        "feedback": "",
        "note": "",
    }
    markers = _markers(world, "Jordan")
    before = jordan_state(world)

    refused, shown, failed = {}, {}, {}
    for route, _pattern in walked_routes():
        params = set(_PARAM.findall(route))
        if params - set(values):
            continue  # reviewed: NO_ITEM_ROUTES
        url = _url(route, values)
        for method in METHODS:
            if route.startswith("api/"):
                response = getattr(api, method)(url, body, format="json")
            else:
                response = getattr(page, method)(url, body)
            if response.status_code >= 500:
                failed[(route, method)] = response.status_code
            if params - {"slug"} and response.status_code not in (403, 404, 405):
                refused[(route, method)] = response.status_code
            content = b"".join(response) if response.streaming else response.content
            text = content.decode("utf-8", errors="replace")
            if any(marker in text for marker in markers):
                shown[(route, method)] = response.status_code

    assert failed == {}
    assert refused == {}
    assert shown == {}
    assert jordan_state(world) == before


def test_a_national_reviewer_sees_exactly_their_country_items(two_countries):
    world = two_countries
    reviewer = world.reviewers["Egypt"]
    egypt = sorted(item.pk for item in world.items["Egypt"])
    page, api = Client(), APIClient()
    page.force_login(reviewer)
    api.force_login(reviewer)

    listed = api.get("/api/projects/ac/items/").json()
    item_page = page.get(f"/p/ac/items/{egypt[0]}/")
    review_page = page.get(f"/p/ac/review/{egypt[0]}/")
    list_page = page.get("/p/ac/items/")

    assert sorted(row["id"] for row in listed["results"]) == egypt
    assert (item_page.status_code, review_page.status_code) == (200, 200)
    assert [item.pk for item in list_page.context["page"].items] == sorted(egypt, reverse=True)
