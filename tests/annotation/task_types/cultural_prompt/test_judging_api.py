"""KALAHI validation over the judging API (the generic shapes): a validator sees the prompt and the
texts in their own order (never which is best, nor the option names or seed), picks by position; the
server records the option, the order and the seed; another project's member gets a 404."""

import json

import pytest
from django.conf import settings

from annotation.models import Assignment, Item, Judgment
from annotation.services.judging import judging_plan
from annotation.task_types.cultural_prompt.judging import shuffle_seed, shuffled
from tests.annotation.task_types.cultural_prompt.world import make_kalahi_project
from tests.api.conftest import client_for
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

BASE = "/api/projects/kalahi"


def test_a_validator_sees_shuffled_texts_only_and_picks_by_position():
    world = make_kalahi_project(rows=1)
    judging_plan(project=world.project)
    item = Item.objects.get(project=world.project)
    payload = item.current_version.payload
    validator = world.validators[0]
    client = client_for(validator)

    claimed = client.post(f"{BASE}/judgments/next/", {}, format="json")
    assert claimed.status_code == 200
    view = claimed.json()["item"]["view"]
    seed = shuffle_seed(world.project.plan_seed, item.pk, validator.pk, secret=settings.SECRET_KEY)
    names = ["best", *(f"irrelevant_{n}" for n in range(1, len(payload["irrelevant"]) + 1))]
    order = shuffled(names, seed)
    texts = {"best": payload["relevant"][payload["best"]]} | {
        f"irrelevant_{n}": t for n, t in enumerate(payload["irrelevant"], start=1)
    }
    assert view == {"prompt": payload["prompt"], "topic": payload["topic"], "options": [texts[n] for n in order]}
    shown = json.dumps(claimed.json())
    assert "best" not in shown and "irrelevant_" not in shown and str(seed) not in shown

    position = order.index("irrelevant_2") + 1
    assignment = Assignment.objects.get(user=validator, kind="validate")
    saved = client.post(f"{BASE}/judgments/{assignment.pk}/", {"choice": str(position)}, format="json")
    assert saved.status_code == 200
    judgment = Judgment.objects.get(item=item, user=validator)
    assert judgment.value == {"choice": "irrelevant_2", "position": position, "order": order, "seed": seed}
    mine = client.get(f"{BASE}/judgments/{assignment.pk}/").json()["my_judgment"]
    assert mine == {"value": {"position": position}, "flags": {}, "comment": ""}

    # Someone of another project: 404, nothing changes.
    outsider = UserFactory(username="outsider")
    refused = client_for(outsider).post(f"{BASE}/judgments/{assignment.pk}/", {"choice": "1"}, format="json")
    assert refused.status_code == 404
    judgment.refresh_from_db()
    assert judgment.value["choice"] == "irrelevant_2"
