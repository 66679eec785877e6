"""DomainErrorMiddleware: a domain error a page does not catch itself answers with its status and
message, never a 500. The case that raised it: an annotator not admitted by screening (work_gate)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from annotation.models import Assignment, Item
from annotation.services.screening import GATE_MESSAGE, screening_configure
from tests.api.conftest import db_state
from tests.config.test_url_matrix import METHODS, _url, demo_world, guarded_routes  # noqa: F401 (a fixture)

pytestmark = pytest.mark.django_db


@pytest.fixture
def gated(demo_world, csqa):  # noqa: F811 (the imported fixture)
    """demo_world's project now requires screening; one active annotator holds authoring work, not admitted."""
    values, _ = demo_world
    author_ids = set(Item.objects.filter(project=csqa.project).values_list("author_id", flat=True))
    annotator = next(u for u in (csqa.annotators[0], csqa.annotators[2]) if u.pk not in author_ids)
    assignment = Assignment.objects.filter(user=annotator, kind="author").order_by("position", "id").first()
    screening_configure(project=csqa.project)
    client = Client()
    client.force_login(annotator)
    return {**values, "assignment_id": assignment.pk}, annotator, client


def test_an_unadmitted_annotator_autosave_answers_403_with_the_gate_message(gated):
    values, _, client = gated
    before = db_state()

    response = client.post(
        reverse("author_draft_save", args=["demo", values["assignment_id"]]),
        {"question": "Kapan orang"},
        HTTP_ACCEPT="application/json",
    )

    assert response.status_code == 403
    assert response.json() == {"detail": GATE_MESSAGE, "code": "not_allowed"}
    assert db_state() == before


def test_an_unadmitted_annotator_skip_answers_403_with_the_gate_message(gated):
    values, _, client = gated
    before = db_state()

    response = client.post(
        reverse("assignment_skip", args=["demo", values["assignment_id"]]),
        {"reason": "unknown_concept", "note": "Tidak kenal", "queue": "author_queue"},
    )

    assert response.status_code == 403
    assert f"{GATE_MESSAGE} Nothing was saved." in response.content.decode()
    assert db_state() == before


def test_an_unadmitted_annotator_gets_no_500_on_any_project_route(gated):
    values, annotator, page = gated
    api = APIClient()
    api.force_login(annotator)

    failed = {}
    for route, _pattern in guarded_routes():
        url = _url(route, values)
        for method in METHODS:
            if route.startswith("api/"):
                response = getattr(api, method)(url, {}, format="json")
            else:
                response = getattr(page, method)(url, {})
            if response.status_code >= 500:
                failed[(route, method)] = response.status_code

    assert failed == {}
