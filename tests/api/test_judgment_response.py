"""POST /judgments/<id>/ answers with the judge's own judgment as the task type shows it to them (its
own_judgment, as GET and the judging page do), never the stored value and never another judge's:
for every task type that judges. KALAHI's stored pick names the option ("best") with the order and
seed, which would tell a validator which response the writers marked best."""

from __future__ import annotations

import dataclasses
import json

import pytest
from django.http import QueryDict
from django.utils import timezone

from annotation.models import Assignment, Item, ItemVersion, Judgment, Membership
from annotation.services.projects import membership_add, project_create
from annotation.task_types import registered_task_types
from annotation.task_types.base import JudgmentInput
from tests.api.conftest import client_for
from tests.factories import UserFactory

pytestmark = [pytest.mark.django_db, pytest.mark.flow]

JUDGING = [
    tt
    for tt in registered_task_types()
    if tt.judgment_form_class() is not None and tt.judging_rule(tt.settings_defaults()) is not None
]
# The multiple-choice shape's body (csqa's API since the first version): its contract example as the API takes it.
CSQA_BODY = {
    "answer": "C",
    "uncertain": True,
    "question_ambiguous": False,
    "option_ambiguous": [False, True, False, False, False],
    "reason": "mungkin",
}


def _body(task_type) -> dict:
    if task_type.judging_api_shape == "multiple_choice":
        return CSQA_BODY
    examples = task_type.contract_examples()
    data = QueryDict(mutable=True)
    for key, value in examples.judgment_form_data.items():
        data.setlist(key, value if isinstance(value, list) else [value])
    form = task_type.judgment_form_class()(data)
    assert form.is_valid(), form.errors
    return form.judgment_data()


def _world(task_type):
    slug = f"own-{task_type.name.replace('_', '-')}"
    admin = UserFactory(username=f"{slug}-admin")
    project = project_create(
        creator=admin,
        name=f"Own judgment {task_type.name}",
        slug=slug,
        task_type=task_type.name,
        languages=[{"code": "id", "name": "Indonesian"}],
    )
    project.screening_required = False
    project.save(update_fields=["screening_required"])
    people = []
    for number in (1, 2, 3):
        user = UserFactory(username=f"{slug}-w{number}")
        membership = membership_add(project=project, user=user, role=Membership.Role.ANNOTATOR, code=f"W{number}")
        # A group for the task types that ask for one (preference's rater groups A and B).
        Membership.objects.filter(pk=membership.pk).update(group="A")
        people.append(user)
    author, judge, other = people
    examples = task_type.contract_examples()
    item = Item.objects.create(
        project=project, task_type=task_type.name, status=Item.Status.APPROVED, author=author, external_id="x1"
    )
    version = ItemVersion.objects.create(
        item=item,
        number=1,
        payload=task_type.normalize_payload(examples.payload_valid),
        created_by=author,
        submitted_at=timezone.now(),
    )
    item.current_version = version
    item.save(update_fields=["current_version"])
    kind = task_type.judging_rule(task_type.settings_defaults()).kind
    assignments = {
        user.pk: Assignment.objects.create(
            project=project, user=user, kind=kind, target_item=item, target_author=author, round=1
        )
        for user in (judge, other)
    }
    return project, item, judge, other, assignments, kind


@pytest.mark.parametrize("task_type", JUDGING, ids=[tt.name for tt in JUDGING])
def test_the_saved_judgment_comes_back_as_the_judge_is_shown_it(task_type):
    project, item, judge, other, assignments, kind = _world(task_type)
    base = f"/api/projects/{project.slug}"
    # Another judge has judged first, with a comment of their own.
    first = client_for(other).post(f"{base}/judgments/{assignments[other.pk].pk}/", _body(task_type), format="json")
    assert first.status_code == 200, first.json()
    Judgment.objects.filter(user=other).update(comment="secret of the other judge")

    saved = client_for(judge).post(f"{base}/judgments/{assignments[judge.pk].pk}/", _body(task_type), format="json")

    assert saved.status_code == 200, saved.json()
    stored = Judgment.objects.get(item=item, user=judge, kind=kind)
    own = task_type.own_judgment(JudgmentInput(value=stored.value, flags=stored.flags, comment=stored.comment))
    body = saved.json()
    shown = {key: body[key] for key in body if key not in ("id", "item_id", "assignment_id", "round")}
    assert (body["id"], body["item_id"], body["assignment_id"]) == (stored.pk, item.pk, assignments[judge.pk].pk)
    assert set(shown) - {"created_at", "updated_at"} == {
        "reason" if f == "comment" and task_type.judging_api_shape == "multiple_choice" else f
        for f in (f.name for f in dataclasses.fields(own))
    }
    mine = client_for(judge).get(f"{base}/judgments/{assignments[judge.pk].pk}/").json()
    own_key = "my_answer" if task_type.judging_api_shape == "multiple_choice" else "my_judgment"
    # The same as GET (and the page) show the judge.
    assert {k: v for k, v in shown.items() if k not in ("created_at", "updated_at")} == mine[own_key]
    assert "secret of the other judge" not in json.dumps(body)


def test_a_kalahi_validator_is_never_told_which_option_was_the_best():
    task_type = next(tt for tt in JUDGING if tt.name == "cultural_prompt")
    project, item, judge, _other, assignments, _kind = _world(task_type)
    client = client_for(judge)

    saved = client.post(f"/api/projects/{project.slug}/judgments/{assignments[judge.pk].pk}/", {"choice": "2"})

    assert saved.status_code == 200
    stored = Judgment.objects.get(item=item, user=judge)
    assert stored.value["position"] == 2 and stored.value["choice"] in stored.value["order"]
    body = saved.json()
    assert (body["value"], body["flags"], body["comment"]) == ({"position": 2}, {}, "")
    text = json.dumps(body)
    assert "best" not in text and "irrelevant_" not in text and "order" not in text and "seed" not in text
