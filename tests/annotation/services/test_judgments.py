"""Recording a cross-answer: validation, own-item refusal (service and database), resubmission, gold."""

import pytest
from django.db import IntegrityError, transaction

from annotation.errors import IllegalTransition, InvalidInput, NotAllowed
from annotation.models import Assignment, Item, Judgment
from annotation.services.judging import judging_plan
from annotation.services.judgments import judgment_record
from qc.models import GoldDecision
from qc.overrides import gold_override
from tests.qc.helpers import CLEAR, make_item, make_project

pytestmark = pytest.mark.django_db

ANSWER = {
    "answer": "c",
    "uncertain": True,
    "question_ambiguous": False,
    "option_ambiguous": [False, True, False, False, False],
    "comment": "  B dan C mirip  ",
}


@pytest.fixture
def planned():
    project, people = make_project(annotators=6)
    item = make_item(project, people[0], answer="C")
    judging_plan(project=project)
    return project, people, item


def _state(item):
    return (
        list(Judgment.objects.filter(item=item).values_list("user_id", "value", "flags", "comment")),
        list(Assignment.objects.filter(target_item=item).order_by("pk").values_list("pk", "status")),
        list(GoldDecision.objects.filter(item=item).values_list("outcome", "details")),
        Item.objects.filter(pk=item.pk).values_list("status", flat=True).get(),
    )


def test_answer_is_saved_assignment_done_and_gold_pending(planned):
    project, people, item = planned
    assignment = Assignment.objects.get(target_item=item, user=people[1])

    judgment = judgment_record(assignment_id=assignment.pk, user=people[1], data=ANSWER)

    judgment.refresh_from_db()
    assert (judgment.value, judgment.flags, judgment.comment) == (
        {"answer": "C"},
        {"uncertain": True, "question_ambiguous": False, "option_ambiguous": [False, True, False, False, False]},
        "B dan C mirip",
    )
    assert (judgment.item_author_id, judgment.assignment_id, judgment.kind) == (people[0].pk, assignment.pk, "answer")
    assignment.refresh_from_db()
    assert assignment.status == "done"
    assert assignment.completed_at is not None
    decision = GoldDecision.objects.get(item=item)
    assert (decision.outcome, decision.reason) == ("pending", "1 of 5 answers so far.")
    assert decision.judgment_ids == [judgment.pk]
    item.refresh_from_db()
    assert item.status == "approved"


def test_resubmitting_updates_the_same_judgment(planned):
    project, people, item = planned
    assignment = Assignment.objects.get(target_item=item, user=people[1])
    first = judgment_record(assignment_id=assignment.pk, user=people[1], data=ANSWER)

    second = judgment_record(
        assignment_id=assignment.pk,
        user=people[1],
        data={"answer": "D", "uncertain": False, "question_ambiguous": True, "option_ambiguous": CLEAR},
    )

    assert second.pk == first.pk
    assert list(Judgment.objects.filter(item=item).values_list("value", "flags", "comment")) == [
        ({"answer": "D"}, {"uncertain": False, "question_ambiguous": True, "option_ambiguous": CLEAR}, "")
    ]
    # The record returned is the row saved: first saved when first answered, updated now.
    stored = Judgment.objects.get(pk=first.pk)
    assert (
        (second.created_at, second.updated_at)
        == (first.created_at, stored.updated_at)
        == (
            stored.created_at,
            stored.updated_at,
        )
    )
    assert second.updated_at > first.updated_at


def test_all_five_answers_decide_the_item(planned):
    project, people, item = planned
    for user, answer in zip(people[1:], ["C", "B", "C", "B", "A"], strict=True):
        assignment = Assignment.objects.get(target_item=item, user=user)
        judgment_record(assignment_id=assignment.pk, user=user, data={"answer": answer})

    decision = GoldDecision.objects.get(item=item)
    assert (decision.outcome, decision.details["majority"], decision.details["matches_author"]) == ("gold", "C", True)
    item.refresh_from_db()
    assert item.status == "gold"


def test_own_item_is_refused_and_nothing_changes(planned):
    project, people, item = planned
    # An assignment row without target_author slips past the database check; the service still refuses.
    own = Assignment.objects.create(project=project, user=people[0], kind="answer", target_item=item)
    before = _state(item)

    with pytest.raises(NotAllowed) as refused:
        judgment_record(assignment_id=own.pk, user=people[0], data=ANSWER)

    assert refused.value.message == "You can't answer your own item."
    assert _state(item) == before
    own.refresh_from_db()
    assert own.status == "pending"


def test_database_refuses_a_judgment_of_ones_own_item(planned):
    project, people, item = planned

    with pytest.raises(IntegrityError, match="judgment_not_own_item"), transaction.atomic():
        Judgment.objects.create(
            project=project, item=item, user=people[0], item_author=people[0], value={"answer": "A"}
        )
    assert not Judgment.objects.filter(item=item).exists()


def test_database_refuses_an_answer_assignment_to_ones_own_item(planned):
    project, people, item = planned

    with pytest.raises(IntegrityError, match="assignment_not_own_item"), transaction.atomic():
        Assignment.objects.create(
            project=project, user=people[0], kind="answer", target_item=item, target_author=people[0]
        )
    assert not Assignment.objects.filter(target_item=item, user=people[0]).exists()


def test_someone_elses_assignment_is_refused(planned):
    project, people, item = planned
    assignment = Assignment.objects.get(target_item=item, user=people[1])
    before = _state(item)

    with pytest.raises(NotAllowed) as refused:
        judgment_record(assignment_id=assignment.pk, user=people[2], data=ANSWER)

    assert refused.value.message == "This assignment is not yours."
    assert _state(item) == before


def test_cancelled_assignment_is_refused(planned):
    project, people, item = planned
    assignment = Assignment.objects.get(target_item=item, user=people[1])
    Assignment.objects.filter(pk=assignment.pk).update(status="cancelled")
    before = _state(item)

    with pytest.raises(IllegalTransition) as refused:
        judgment_record(assignment_id=assignment.pk, user=people[1], data=ANSWER)

    assert refused.value.message == "This assignment was cancelled; open your queue for the next one."
    assert _state(item) == before


def test_item_not_approved_is_refused(planned):
    project, people, item = planned
    assignment = Assignment.objects.get(target_item=item, user=people[1])
    Item.objects.filter(pk=item.pk).update(status=Item.Status.SUBMITTED)
    before = _state(item)

    with pytest.raises(IllegalTransition) as refused:
        judgment_record(assignment_id=assignment.pk, user=people[1], data=ANSWER)

    assert refused.value.message == "Only approved items can be answered; this one is submitted."
    assert _state(item) == before


def test_invalid_answer_is_refused_with_field_errors(planned):
    project, people, item = planned
    assignment = Assignment.objects.get(target_item=item, user=people[1])
    before = _state(item)

    with pytest.raises(InvalidInput) as refused:
        judgment_record(
            assignment_id=assignment.pk,
            user=people[1],
            data={"answer": "F", "uncertain": "maybe", "option_ambiguous": [True, False]},
        )

    assert refused.value.field_errors == {
        "answer": ["Choose one of the options A-E."],
        "uncertain": ["Must be true or false."],
        "option_ambiguous": ["Give one true/false per option (5)."],
    }
    assert _state(item) == before


def test_a_judgment_keeps_an_admins_override_in_force(planned):
    # Given an item judged once, then overridden by the admin to excluded
    project, people, item = planned
    judges = list(Assignment.objects.filter(target_item=item).order_by("pk"))
    judgment_record(assignment_id=judges[0].pk, user=judges[0].user, data={**ANSWER, "answer": "C"})
    admin = project.memberships.get(role="admin").user
    override = gold_override(item=item, user=admin, outcome="excluded", note="Off topic.")

    # When another judge answers it (the decision is recomputed)
    judgment_record(assignment_id=judges[1].pk, user=judges[1].user, data={**ANSWER, "answer": "C"})

    # Then the override's outcome stays on the decision and the item
    decision = GoldDecision.objects.get(item=item)
    assert (decision.outcome, decision.reason, decision.override_id) == ("excluded", "Off topic.", override.pk)
    assert decision.details["answers"] == 2
    assert Item.objects.filter(pk=item.pk).values_list("status", flat=True).get() == "excluded"
