"""NLI validation rounds end to end in the database, through the core's judging and gold engines."""

import pytest

from annotation.models import Assignment, Item, Judgment
from annotation.services.items import unit_submit
from annotation.services.judging import judging_plan
from annotation.services.judgments import judgment_record
from qc.models import GoldDecision
from tests.annotation.task_types.nli.world import SIX, make_nli_project, writing_assignment

pytestmark = pytest.mark.django_db


def _written(*, annotators=5, expert=True):
    """An expert project (100% validated, no QC review) with the six hypotheses of one premise approved."""
    world = make_nli_project(annotators=annotators, expert=expert, qc_review=False)
    assignment = writing_assignment(world)
    items = unit_submit(assignment_id=assignment.pk, user=assignment.user, data={"items": SIX})
    return world, items


def _validate(item, label, *, round_):
    assignment = (
        Assignment.objects.filter(target_item=item, kind="validate", round=round_, status="pending")
        .order_by("id")
        .first()
    )
    judgment_record(assignment_id=assignment.pk, user=assignment.user, data={"label": label})
    return assignment.user_id


def _rounds(item):
    return sorted(Assignment.objects.filter(target_item=item, kind="validate").values_list("round", flat=True))


def test_round_one_agreement_is_gold():
    world, items = _written()
    judging_plan(project=world.project)
    item = items[0]  # author: entailment
    assert _rounds(item) == [1, 1]
    _validate(item, "e", round_=1)
    _validate(item, "entailment", round_=1)
    decision = GoldDecision.objects.get(item=item)
    assert (decision.outcome, decision.policy, decision.details["label"]) == ("gold", "nli_rounds_v1", "entailment")
    assert _rounds(item) == [1, 1]
    assert list(Judgment.objects.filter(item=item).values_list("round", "kind")) == [(1, "validate"), (1, "validate")]


def test_disagreement_plans_round_two_once_and_a_third_validator_settles():
    world, items = _written()
    judging_plan(project=world.project)
    item = items[2]  # author: contradiction
    first = _validate(item, "c", round_=1)
    assert _rounds(item) == [1, 1]
    second = _validate(item, "n", round_=1)
    item.refresh_from_db()
    assert (item.judging_round, _rounds(item)) == (2, [1, 1, 2])
    third = Assignment.objects.get(target_item=item, round=2)
    assert third.user_id not in {first, second, item.author_id}
    assert GoldDecision.objects.get(item=item).outcome == "pending"
    # the second validator changes nothing by answering again: round 2 is not planned twice
    again = Assignment.objects.get(target_item=item, user_id=second)
    judgment_record(assignment_id=again.pk, user=again.user, data={"label": "n"})
    assert _rounds(item) == [1, 1, 2]
    _validate(item, "c", round_=2)
    decision = GoldDecision.objects.get(item=item)
    assert (decision.outcome, decision.details) == (
        "gold",
        {
            "label": "contradiction",
            "author_label": "contradiction",
            "round": 2,
            "labels_by_round": {"1": ["contradiction", "neutral"], "2": ["contradiction"]},
        },
    )
    assert Judgment.objects.get(item=item, user_id=third.user_id).round == 2


def test_round_three_without_three_votes_is_no_gold():
    world, items = _written()
    judging_plan(project=world.project)
    item = items[4]  # author: neutral
    _validate(item, "e", round_=1)
    _validate(item, "c", round_=1)
    _validate(item, "n", round_=2)
    item.refresh_from_db()
    assert (item.judging_round, _rounds(item)) == (3, [1, 1, 2, 3])
    _validate(item, "e", round_=3)
    decision = GoldDecision.objects.get(item=item)
    assert (decision.outcome, decision.details["label"], decision.details["round"]) == ("no_gold", None, 3)
    item.refresh_from_db()
    assert item.status == Item.Status.JUDGED
    assert _rounds(item) == [1, 1, 2, 3]


def test_lay_share_is_reproducible():
    world = make_nli_project(annotators=5, qc_review=False)
    assignment = writing_assignment(world)
    unit_submit(assignment_id=assignment.pk, user=assignment.user, data={"items": SIX})
    judging_plan(project=world.project)
    first = sorted(
        set(Assignment.objects.filter(project=world.project, kind="validate").values_list("target_item", flat=True))
    )
    judging_plan(project=world.project)
    again = sorted(
        set(Assignment.objects.filter(project=world.project, kind="validate").values_list("target_item", flat=True))
    )
    assert first == again
    assert Assignment.objects.filter(project=world.project, kind="validate").count() == 2 * len(first)
