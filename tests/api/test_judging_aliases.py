"""The judging API's older addresses (plans/cross-answers/, answers/next/, answers/<id>/) answer exactly
like plans/judging/, judgments/next/ and judgments/<id>/, and the schema marks them deprecated."""

from datetime import UTC, datetime
from unittest import mock

import pytest

from annotation.models import Assignment, Judgment
from annotation.services.judging import judging_plan
from tests.annotation.task_types.csqa.world import make_world
from tests.api.conftest import client_for
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

BASE = "/api/projects/xa"
# One instant for both calls of a pair: the lease and the judgment's times are then the same.
NOW = datetime(2026, 11, 28, 9, 30, tzinfo=UTC)
NEW_AND_OLD = ("judgments", "answers")


@pytest.fixture
def planned():
    world = make_world()
    judging_plan(project=world.project)
    return world


def _replies(responses):
    return [(r.status_code, r.json()) for r in responses]


def test_the_older_judging_addresses_answer_exactly_like_the_new_ones(planned):
    judge = planned.people[0]
    client = client_for(judge)
    expected = Assignment.objects.filter(user=judge, kind="answer").order_by("position", "id").first()
    body = {"answer": "B", "reason": "Both fit."}

    with mock.patch("django.utils.timezone.now", return_value=NOW):
        claimed = [client.post(f"{BASE}/{path}/next/", {}, format="json") for path in NEW_AND_OLD]
        shown = [client.get(f"{BASE}/{path}/{expected.pk}/") for path in NEW_AND_OLD]
        saved = [client.post(f"{BASE}/{path}/{expected.pk}/", body, format="json") for path in NEW_AND_OLD]

    new_claim, old_claim = _replies(claimed)
    new_shown, old_shown = _replies(shown)
    new_saved, old_saved = _replies(saved)
    assert (new_claim[0], new_claim[1]["id"], new_claim[1]["my_answer"]) == (200, expected.pk, None)
    assert old_claim == new_claim
    assert old_shown == new_shown == new_claim
    assert (new_saved[0], new_saved[1]["answer"], new_saved[1]["reason"]) == (200, "B", "Both fit.")
    assert old_saved == new_saved
    assert Judgment.objects.filter(user=judge).count() == 1


def test_the_older_plan_address_plans_exactly_like_the_new_one(planned):
    client = client_for(planned.admin)

    replanned = [client.post(f"{BASE}/plans/{path}/", {}, format="json") for path in ("judging", "cross-answers")]

    summary = {"created": 0, "reactivated": 0, "moved": 0, "items": 4, "workers": 4}
    assert _replies(replanned) == [(200, summary), (200, summary)]


def test_the_schema_marks_the_older_judging_addresses_deprecated():
    schema = client_for(UserFactory()).get("/api/schema/", {"format": "json"}).json()
    paths = schema["paths"]

    def operations(path):
        return {
            method: (operation["operationId"], operation.get("deprecated", False))
            for method, operation in paths[f"/api/projects/{{slug}}/{path}"].items()
            if method != "parameters"
        }

    assert operations("plans/judging/") == {"post": ("plans_judging", False)}
    assert operations("judgments/next/") == {"post": ("judgments_next", False)}
    assert operations("judgments/{assignment_id}/") == {
        "get": ("judgments_retrieve", False),
        "post": ("judgments_submit", False),
    }
    assert operations("plans/cross-answers/") == {"post": ("plans_cross_answers", True)}
    assert operations("answers/next/") == {"post": ("answers_next", True)}
    assert operations("answers/{assignment_id}/") == {
        "get": ("answers_retrieve", True),
        "post": ("answers_submit", True),
    }
    old, new = (
        paths["/api/projects/{slug}/answers/{assignment_id}/"],
        paths["/api/projects/{slug}/judgments/{assignment_id}/"],
    )
    assert old["post"]["description"] == "Deprecated address: use judgments/<id>/."
    assert old["post"]["requestBody"] == new["post"]["requestBody"]
    assert old["post"]["responses"] == new["post"]["responses"]
