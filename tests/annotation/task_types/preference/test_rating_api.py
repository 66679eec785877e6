"""IndoPref rating over the judging API (the generic shapes): a rater claims a prompt and sees its
responses numbered in their own order with the rubrics, never a model or a response id; posts scores by
position; the server stores them by response id with the order shown and answers by position only. An
incomplete rating, ratings by response id, positions out of range and another project's member are
refused and change nothing."""

import json
import random

import pytest
from django.conf import settings
from django.test import override_settings

from annotation.errors import InvalidInput
from annotation.models import Assignment, Judgment, Membership
from annotation.task_types.preference.judging import shown_order
from annotation.task_types.preference.rubrics import rubrics_for
from tests.annotation.task_types.preference.world import CATEGORIES, MODELS, make_world, plan
from tests.api.conftest import client_for, db_state
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

BASE = "/api/projects/pref"
RELEVANCE_ANCHORS = ["Irrelevant", "Weakly relevant", "Partially relevant", "Mostly relevant", "Highly relevant"]
CODING_ANCHORS = [
    "Incorrect",
    "Weakly correct",
    "Correct but flawed algorithm",
    "Correct and executable",
    "Correct and optimal",
]


def test_a_rater_rates_by_position_over_the_api_and_never_sees_models():
    world = make_world(raters_per_group=1)
    plan(world)
    rater = world.raters["A"][0]
    client = client_for(rater)

    claimed = client.post(f"{BASE}/judgments/next/", {}, format="json")
    assert claimed.status_code == 200
    assignment = Assignment.objects.get(user=rater, kind="rate", status="active")
    p = int(assignment.target_item.external_id[1:])
    item = world.items[p]
    payload = item.current_version.payload
    order = shown_order(
        ["r1", "r2", "r3", "r4", "r5"],
        secret=settings.SECRET_KEY,
        seed=world.project.plan_seed,
        item_id=item.pk,
        judge_id=rater.pk,
    )
    texts = {r["id"]: r["text"] for r in payload["responses"]}
    view = claimed.json()["item"]["view"]
    assert view == {
        "prompt": payload["prompt"],
        "input": payload["input"],
        "responses": [{"position": n, "text": texts[rid]} for n, rid in enumerate(order, 1)],
        "rubrics": rubrics_for(CATEGORIES[p % len(CATEGORIES)]),
        "anchors": {
            "relevance": CODING_ANCHORS if CATEGORIES[p % len(CATEGORIES)] == "coding" else RELEVANCE_ANCHORS,
            "fluency": ["Very poor", "Poor", "Acceptable", "Good", "Excellent"],
        },
    }
    shown = json.dumps(claimed.json())
    assert not any(model in shown for model in MODELS) and '"r1"' not in shown

    before = db_state()
    short = client.post(
        f"{BASE}/judgments/{assignment.pk}/", {"ratings": [{"relevance": 5, "fluency": 5}], "best": 1}, format="json"
    )
    assert short.status_code == 400
    assert short.json()["detail"] == "Rate all 5 responses (this rating has 1)."
    assert db_state() == before

    ratings = [{"relevance": n, "fluency": 6 - n} for n in range(1, 6)]
    saved = client.post(f"{BASE}/judgments/{assignment.pk}/", {"ratings": ratings, "best": 4}, format="json")
    assert saved.status_code == 200
    judgment = Judgment.objects.get(item=item, user=rater)
    assert judgment.value == {
        "ratings": {rid: {"relevance": n, "fluency": 6 - n} for n, rid in enumerate(order, 1)},
        "best": order[3],
        "order": order,
        "group": "A",
    }
    # The reply and a later GET answer by position, as posted: no order, no ids.
    assert (saved.json()["value"], saved.json()["flags"]) == ({"ratings": ratings, "best": 4}, {})
    again = client.get(f"{BASE}/judgments/{assignment.pk}/").json()
    assert again["my_judgment"] == {"value": {"ratings": ratings, "best": 4}, "flags": {}, "comment": ""}
    for body in (saved.json(), again):
        assert not any(f'"r{n}"' in json.dumps(body) for n in range(1, 6))

    outsider = client_for(UserFactory(username="outsider"))
    before = db_state()
    refused = outsider.post(f"{BASE}/judgments/{assignment.pk}/", {"ratings": ratings, "best": 1}, format="json")
    assert refused.status_code == 404
    assert db_state() == before


def test_an_admin_sets_a_rater_group_over_the_api_and_the_plan_uses_it():
    world = make_world(raters_per_group=1)
    membership = Membership.objects.get(project=world.project, user=world.raters["A"][0])
    admin, rater = client_for(world.admin), client_for(world.raters["B"][0])
    url = f"{BASE}/members/{membership.pk}/group/"

    assert admin.get(url).json() == {"group": "A"}
    before = db_state()
    bad = admin.put(url, {"group": "no spaces"}, format="json")
    not_admin = rater.put(url, {"group": "B"}, format="json")
    assert db_state() == before
    moved = admin.put(url, {"group": "B"}, format="json")
    with pytest.raises(InvalidInput) as refused:
        plan(world)

    assert (bad.status_code, bad.json()["detail"]) == (400, "A group is at most 20 letters, digits, '-' or '_'.")
    assert not_admin.status_code == 403
    assert (moved.status_code, moved.json()) == (200, {"group": "B"})
    # both raters are in group B now: the plan is refused and nothing is planned
    assert refused.value.message == (
        "Rating needs 2 annotators per item besides its author; group A has 0 active annotators, 1 needed per item"
    )
    assert Assignment.objects.filter(project=world.project, kind="rate").count() == 0


def _claimed(world, rater):
    client = client_for(rater)
    assert client.post(f"{BASE}/judgments/next/", {}, format="json").status_code == 200
    return client, Assignment.objects.get(user=rater, kind="rate", status="active")


def test_ratings_keyed_by_position_are_stored_against_the_responses_shown_there():
    world = make_world(raters_per_group=1)
    plan(world)
    rater = world.raters["B"][0]
    client, assignment = _claimed(world, rater)
    view = client.get(f"{BASE}/judgments/{assignment.pk}/").json()["item"]["view"]
    payload = world.items[int(assignment.target_item.external_id[1:])].current_version.payload
    text_to_id = {r["text"]: r["id"] for r in payload["responses"]}
    by_position = {str(r["position"]): {"relevance": r["position"], "fluency": 1} for r in view["responses"]}

    saved = client.post(f"{BASE}/judgments/{assignment.pk}/", {"ratings": by_position, "best": "5"}, format="json")

    assert saved.status_code == 200
    stored = Judgment.objects.get(user=rater).value
    assert stored["ratings"] == {
        text_to_id[r["text"]]: {"relevance": r["position"], "fluency": 1} for r in view["responses"]
    }
    assert stored["best"] == text_to_id[view["responses"][4]["text"]]
    assert saved.json()["value"] == {
        "ratings": [{"relevance": n, "fluency": 1} for n in range(1, 6)],
        "best": 5,
    }


@pytest.mark.parametrize(
    ("body", "errors"),
    [
        (
            {"ratings": {f"r{n}": {"relevance": 5, "fluency": 5} for n in range(1, 6)}, "best": "r1"},
            {
                "ratings": ["Rate the responses by the positions you are shown (1 to 5), never by response id."],
                "best": ["Pick the best response by its position."],
            },
        ),
        (
            {"ratings": [{"relevance": 5, "fluency": 5}] * 5, "best": "r1"},
            {"best": ["Pick the best response by its position."]},
        ),
        (
            {"ratings": [{"relevance": 5, "fluency": 5}] * 5, "best": 6},
            {"best": ["Pick the best response by its position."]},
        ),
        (
            {"ratings": {str(n): {"relevance": 5, "fluency": 5} for n in (1, 2, 3, 4, 6)}, "best": 1},
            {"ratings": ["Rate the responses by the positions you are shown (1 to 5), never by response id."]},
        ),
    ],
    ids=["ids", "best-id", "best-out-of-range", "position-out-of-range"],
)
def test_ratings_by_response_id_or_out_of_range_are_refused_and_change_nothing(body, errors):
    world = make_world(raters_per_group=1)
    plan(world)
    rater = world.raters["A"][0]
    client, assignment = _claimed(world, rater)
    # An earlier rating by position, which the refused posts must leave as it is.
    first = [{"relevance": 3, "fluency": 3}] * 5
    earlier = client.post(f"{BASE}/judgments/{assignment.pk}/", {"ratings": first, "best": 1}, format="json")
    assert earlier.status_code == 200
    before = db_state()

    refused = client.post(f"{BASE}/judgments/{assignment.pk}/", body, format="json")

    assert refused.status_code == 400
    assert refused.json()["detail"] == "The rating can't be saved yet."
    assert refused.json()["errors"] == errors
    assert db_state() == before


def test_six_positions_for_five_responses_are_refused_and_change_nothing():
    world = make_world(raters_per_group=1)
    plan(world)
    rater = world.raters["A"][0]
    client, assignment = _claimed(world, rater)
    before = db_state()

    six = [{"relevance": 4, "fluency": 4}] * 6
    refused = client.post(f"{BASE}/judgments/{assignment.pk}/", {"ratings": six, "best": 6}, format="json")

    assert (refused.status_code, refused.json()["detail"]) == (400, "Rate all 5 responses (this rating has 6).")
    assert db_state() == before


def _orders(world, user) -> list[list[str]]:
    """The response ids in the order the API shows the rater each of their prompts."""
    client, orders = client_for(user), []
    for assignment in Assignment.objects.filter(user=user, kind="rate").order_by("pk"):
        view = client.get(f"{BASE}/judgments/{assignment.pk}/").json()["item"]["view"]
        payload = world.items[int(assignment.target_item.external_id[1:])].current_version.payload
        text_to_id = {r["text"]: r["id"] for r in payload["responses"]}
        orders.append([text_to_id[r["text"]] for r in view["responses"]])
    return orders


def test_orders_differ_between_raters_and_cannot_be_computed_from_the_project_api():
    world = make_world(raters_per_group=1)
    plan(world)
    a, b = world.raters["A"][0], world.raters["B"][0]
    project = client_for(a).get(f"{BASE}/").json()
    # Every prompt is rated by one rater of each group: each of them has all 20.
    assert Assignment.objects.filter(user=a, kind="rate").count() == 20

    orders_a, orders_b = _orders(world, a), _orders(world, b)
    predicted = []
    for assignment in Assignment.objects.filter(user=a, kind="rate").order_by("pk"):
        ids = ["r1", "r2", "r3", "r4", "r5"]
        random.Random(f"{project['plan_seed']}:{assignment.target_item_id}:{a.pk}").shuffle(ids)
        predicted.append(ids)
    with override_settings(SECRET_KEY="another-deployment-secret"):
        rotated = _orders(world, a)

    assert orders_a != orders_b
    assert orders_a != predicted
    assert rotated != orders_a
    assert all(sorted(order) == ["r1", "r2", "r3", "r4", "r5"] for order in orders_a + orders_b)
