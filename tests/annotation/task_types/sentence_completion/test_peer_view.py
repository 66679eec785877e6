"""Stage 2 shows the peer the premise and the completions in the item's shuffled order, never the author's
answer: on the judging page and in the API; a peer's answer through the API is recorded in the same way."""

import json

import pytest
from django.urls import reverse

from annotation.models import Assignment, Judgment
from annotation.services.judging import judging_plan
from annotation.task_types.sentence_completion.judging import shuffled_order
from tests.annotation.task_types.sentence_completion.world import authored_world, peer_letter, review_all

pytestmark = pytest.mark.django_db


def _keys(value) -> set[str]:
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in _keys(v)}
    if isinstance(value, list):
        return {k for v in value for k in _keys(v)}
    return set()


@pytest.fixture
def planned():
    world = authored_world()
    review_all(world)
    judging_plan(project=world.project)
    return world


def _assignment(world):
    return (
        Assignment.objects.filter(project=world.project, kind="answer")
        .select_related("user", "target_item__current_version")
        .order_by("pk")
        .first()
    )


def test_the_page_shows_the_shuffled_completions_and_never_the_answer(client, planned):
    assignment = _assignment(planned)
    item = assignment.target_item
    payload = item.current_version.payload
    client.force_login(assignment.user)

    page = client.get(reverse("judge_item", args=[planned.project.slug, assignment.pk])).content.decode()

    order = shuffled_order(item.pk, planned.project.plan_seed)
    shown = [payload["completions"][j] for j in order]
    positions = [page.index(text) for text in shown]
    assert positions == sorted(positions)
    assert payload["premise"] in page
    assert "correct" not in page and 'name="answer"' not in page and "relevant_to" not in page
    assert 'dir="rtl"' in page


def test_the_api_sends_no_answer_and_records_the_order(client, planned):
    assignment = _assignment(planned)
    item = assignment.target_item
    client.force_login(assignment.user)
    url = reverse("api-judgment", args=[planned.project.slug, assignment.pk])

    task = client.get(url).json()

    order = shuffled_order(item.pk, planned.project.plan_seed)
    completions = item.current_version.payload["completions"]
    assert task["item"]["view"]["options"] == [
        {"letter": letter, "text": completions[j]} for letter, j in zip("ABC", order, strict=True)
    ]
    assert "answer" not in _keys(task) and "relevant_to_this_country" not in _keys(task)
    assert "country" not in json.dumps(task["item"])

    letter = peer_letter(planned, item, right=True)
    response = client.post(url, {"choice": letter}, content_type="application/json")

    assert response.status_code == 200, response.content
    judgment = Judgment.objects.get(item=item)
    assert judgment.value == {"answer": item.current_version.payload["answer"], "shown": letter, "order": order}
    item.refresh_from_db()
    assert item.status == "gold"
    # The peer's own answer comes back as they gave it, without the author's lettering.
    again = client.get(url).json()
    assert "answer" not in _keys(again)


def test_a_refused_answer_changes_nothing(client, planned):
    assignment = _assignment(planned)
    client.force_login(assignment.user)
    url = reverse("api-judgment", args=[planned.project.slug, assignment.pk])

    response = client.post(url, {"choice": "D"}, content_type="application/json")

    assert response.status_code == 400
    assert "Choose one of the completions A, B, C." in response.content.decode()
    assert not Judgment.objects.filter(item=assignment.target_item).exists()
    assert Assignment.objects.get(pk=assignment.pk).status != "done"
