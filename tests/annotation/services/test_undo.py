"""Previous / undo for judging: a judge changes their answer only while nobody has used it."""

from datetime import timedelta

import pytest
from django.conf import settings
from django.utils import timezone

from annotation.errors import IllegalTransition
from annotation.models import Assignment, Judgment
from annotation.services.judging import judging_plan
from annotation.services.judgments import judgment_change
from annotation.services.undo import change_refusal
from qc.models import GoldDecision
from tests.qc.helpers import make_item, make_project

pytestmark = pytest.mark.django_db

NOW = timezone.now()


def test_change_refusal_names_each_reason():
    fresh = {"status": "done", "completed_at": NOW, "round_": 1, "item_status": "approved", "item_round": 1}

    assert change_refusal(**fresh, now=NOW) == ""
    assert change_refusal(**{**fresh, "status": "active"}, now=NOW + timedelta(days=9)) == ""
    assert (
        change_refusal(**{**fresh, "item_status": "judged"}, now=NOW)
        == "This item has been decided; your answer can no longer be changed."
    )
    assert (
        change_refusal(**{**fresh, "item_round": 2}, now=NOW)
        == "The next round of this item has started; your answer can no longer be changed."
    )
    late = NOW + timedelta(seconds=settings.GOTONG_ASSIGNMENT_LEASE_SECONDS + 1)
    assert change_refusal(**fresh, now=late) == "The time to change this answer has run out."


@pytest.fixture
def judged(db):
    project, people = make_project(slug="un", annotators=4, m=3, threshold=3)
    item = make_item(project, people[0])
    judging_plan(project=project)
    assignments = {a.user_id: a for a in Assignment.objects.filter(target_item=item)}
    return item, [(u, assignments[u.pk]) for u in people[1:]]


def snapshot(item):
    return (
        list(Judgment.objects.order_by("pk").values()),
        list(GoldDecision.objects.order_by("pk").values()),
        list(Assignment.objects.order_by("pk").values()),
    )


def test_the_last_answer_changes_while_the_item_is_undecided(judged):
    item, judges = judged
    user, assignment = judges[0]
    judgment_change(assignment_id=assignment.pk, user=user, data={"answer": "B"})

    changed = judgment_change(assignment_id=assignment.pk, user=user, data={"answer": "C"})

    assert list(Judgment.objects.filter(item=item).values_list("pk", "value")) == [(changed.pk, {"answer": "C"})]


def test_a_change_after_the_decision_is_refused_and_changes_nothing(judged):
    item, judges = judged
    for user, assignment in judges:
        judgment_change(assignment_id=assignment.pk, user=user, data={"answer": "A"})
    item.refresh_from_db()
    before = snapshot(item)
    user, assignment = judges[0]

    with pytest.raises(IllegalTransition) as refused:
        judgment_change(assignment_id=assignment.pk, user=user, data={"answer": "B"})

    assert GoldDecision.objects.get(item=item).outcome == "gold"  # decided: three answers agree
    assert refused.value.message == "This item has been decided; your answer can no longer be changed."
    assert snapshot(item) == before


def test_a_change_after_the_lease_is_refused_and_changes_nothing(judged):
    item, judges = judged
    user, assignment = judges[0]
    judgment_change(assignment_id=assignment.pk, user=user, data={"answer": "B"})
    long_ago = timezone.now() - timedelta(seconds=settings.GOTONG_ASSIGNMENT_LEASE_SECONDS + 5)
    Assignment.objects.filter(pk=assignment.pk).update(completed_at=long_ago)
    before = snapshot(item)

    with pytest.raises(IllegalTransition) as refused:
        judgment_change(assignment_id=assignment.pk, user=user, data={"answer": "C"})

    assert refused.value.message == "The time to change this answer has run out."
    assert snapshot(item) == before
