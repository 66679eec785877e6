"""The API of "work is never lost": the authoring autosave, skip with a reason, undo only while unused."""

import pytest

from annotation.models import Assignment, Judgment, Skip, WorkDraft
from annotation.services.assignments import assignment_plan_authoring
from annotation.services.judging import judging_plan
from annotation.services.judgments import judgment_record
from tests.api.conftest import client_for
from tests.qc.helpers import make_item, make_project

pytestmark = pytest.mark.django_db


@pytest.fixture
def planned(csqa):
    assignment_plan_authoring(project=csqa.project)
    return csqa


def first_of(user):
    return Assignment.objects.filter(user=user, kind="author").order_by("position", "id").first()


def test_autosave_round_trip_and_another_annotator_gets_404(planned):
    owner, other, _ = planned.annotators
    assignment = first_of(owner)
    url = f"/api/projects/demo/assignments/{assignment.pk}/autosave/"
    client = client_for(owner)

    empty = client.get(url)
    saved = client.put(url, {"fields": {"question": "Kapan", "tags": ["a", "b"]}}, format="json")
    read = client.get(url)
    theirs = [client_for(other).get(url).status_code, client_for(other).put(url, {"fields": {}}, format="json")]

    assert empty.status_code == 204
    assert saved.status_code == 200
    assert read.json()["fields"] == {"question": "Kapan", "tags": ["a", "b"]}
    assert read.json()["saved_at"] == saved.json()["saved_at"]
    assert [theirs[0], theirs[1].status_code] == [404, 404]
    assert list(WorkDraft.objects.values_list("fields", flat=True)) == [{"question": "Kapan", "tags": ["a", "b"]}]


def test_autosave_refuses_fields_that_are_not_text(planned):
    assignment = first_of(planned.annotators[0])
    client = client_for(planned.annotators[0])

    response = client.put(
        f"/api/projects/demo/assignments/{assignment.pk}/autosave/", {"fields": {"n": 3}}, format="json"
    )

    assert response.status_code == 400
    assert not WorkDraft.objects.exists()


def test_skip_over_the_api_records_the_reason_and_refuses_a_second_time(planned):
    owner = planned.annotators[0]
    assignment = first_of(owner)
    url = f"/api/projects/demo/assignments/{assignment.pk}/skip/"
    client = client_for(owner)

    bad = client.post(url, {"reason": "bored"}, format="json")
    done = client.post(url, {"reason": "unsuitable", "note": "Terlalu umum"}, format="json")
    again = client.post(url, {"reason": "other"}, format="json")

    assert bad.status_code == 400
    assert done.status_code == 200
    assert {k: done.json()[k] for k in ("assignment", "reason", "note")} == {
        "assignment": assignment.pk,
        "reason": "unsuitable",
        "note": "Terlalu umum",
    }
    assert again.status_code == 409
    assert again.json()["detail"] == "This assignment was cancelled; open your queue for the next one."
    assert list(Skip.objects.values_list("assignment_id", "reason")) == [(assignment.pk, "unsuitable")]


def test_changing_an_answer_over_the_api_after_the_decision_is_refused_and_changes_nothing():
    project, people = make_project(slug="ua", annotators=4, m=3, threshold=3)
    item = make_item(project, people[0])
    judging_plan(project=project)
    for user in people[1:]:
        assignment = Assignment.objects.get(target_item=item, user=user)
        judgment_record(assignment_id=assignment.pk, user=user, data={"answer": "A"})
    assignment = Assignment.objects.get(target_item=item, user=people[1])
    before = list(Judgment.objects.order_by("pk").values())

    url = f"/api/projects/ua/judgments/{assignment.pk}/"
    response = client_for(people[1]).post(url, {"answer": "B"}, format="json")

    assert response.status_code == 409
    assert response.json()["detail"] == "This item has been decided; your answer can no longer be changed."
    assert list(Judgment.objects.order_by("pk").values()) == before
