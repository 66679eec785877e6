"""IndoPref rating over the judging API (the generic shapes): a rater claims a prompt and sees its
responses numbered in their own order with the rubrics, never a model or a response id; posts scores by
position; the server stores them by response id with the order shown. An incomplete rating and another
project's member are refused and change nothing."""

import json

import pytest

from annotation.errors import InvalidInput
from annotation.models import Assignment, Judgment, Membership
from annotation.task_types.preference.judging import shown_order
from annotation.task_types.preference.rubrics import rubrics_for
from tests.annotation.task_types.preference.world import CATEGORIES, MODELS, make_world, plan
from tests.api.conftest import client_for, db_state
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

BASE = "/api/projects/pref"


def test_a_rater_rates_by_position_over_the_api_and_never_sees_models():
    world = make_world(raters_per_group=1)
    plan(world)
    rater = world.raters["A"][0]
    client = client_for(rater)

    claimed = client.post(f"{BASE}/answers/next/", {}, format="json")
    assert claimed.status_code == 200
    assignment = Assignment.objects.get(user=rater, kind="rate", status="active")
    p = int(assignment.target_item.external_id[1:])
    item = world.items[p]
    payload = item.current_version.payload
    order = shown_order(
        ["r1", "r2", "r3", "r4", "r5"], seed=world.project.plan_seed, item_id=item.pk, judge_id=rater.pk
    )
    texts = {r["id"]: r["text"] for r in payload["responses"]}
    view = claimed.json()["item"]["view"]
    assert view == {
        "prompt": payload["prompt"],
        "input": payload["input"],
        "responses": [{"position": n, "text": texts[rid]} for n, rid in enumerate(order, 1)],
        "rubrics": rubrics_for(CATEGORIES[p % len(CATEGORIES)]),
    }
    shown = json.dumps(claimed.json())
    assert not any(model in shown for model in MODELS) and '"r1"' not in shown

    before = db_state()
    short = client.post(
        f"{BASE}/answers/{assignment.pk}/", {"ratings": [{"relevance": 5, "fluency": 5}], "best": 1}, format="json"
    )
    assert short.status_code == 400
    assert short.json()["detail"] == "Rate all 5 responses (this rating has 1)."
    assert db_state() == before

    ratings = [{"relevance": n, "fluency": 6 - n} for n in range(1, 6)]
    saved = client.post(f"{BASE}/answers/{assignment.pk}/", {"ratings": ratings, "best": 4}, format="json")
    assert saved.status_code == 200
    judgment = Judgment.objects.get(item=item, user=rater)
    assert judgment.value == {
        "ratings": {rid: {"relevance": n, "fluency": 6 - n} for n, rid in enumerate(order, 1)},
        "best": order[3],
        "order": order,
        "group": "A",
    }

    outsider = client_for(UserFactory(username="outsider"))
    before = db_state()
    refused = outsider.post(f"{BASE}/answers/{assignment.pk}/", {"ratings": ratings, "best": 1}, format="json")
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
