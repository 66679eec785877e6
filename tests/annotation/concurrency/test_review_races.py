"""Two reviewers deciding, or claiming, at the same moment: exactly one wins."""

import pytest

from annotation.errors import Conflict
from annotation.models import Assignment, Item
from annotation.services.assignments import assignment_plan_authoring
from annotation.services.items import item_submit
from qc.models import Review
from qc.services import review_approve, review_claim_next, review_request_revision
from tests.annotation.concurrency.helpers import make_project, payload_for, run_together

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

ROUNDS = 10
DECIDED = "Another reviewer has already decided on this version."


def _submitted_items(setup, count: int) -> list[Item]:
    assignment_plan_authoring(project=setup.project)
    author = setup.annotators[0]
    assignments = (
        Assignment.objects.filter(project=setup.project, user=author)
        .select_related("concept")
        .order_by("position", "id")[:count]
    )
    return [item_submit(assignment_id=a.pk, user=author, data=payload_for(a.concept.name)) for a in assignments]


def _decide(decision: str, item: Item, reviewer):
    if decision == "approve":
        return lambda: review_approve(item_id=item.pk, version_id=item.current_version_id, reviewer=reviewer)
    return lambda: review_request_revision(
        item_id=item.pk,
        version_id=item.current_version_id,
        reviewer=reviewer,
        feedback=f"Terlalu umum ({reviewer.username}).",
        error_type_codes=["too_general"],
    )


STATUS_AFTER = {"approve": Item.Status.APPROVED, "revise": Item.Status.REVISION_REQUESTED}
PAIRS = [("approve", "approve"), ("approve", "revise"), ("revise", "approve"), ("revise", "revise")]


def test_two_reviewers_deciding_the_same_version_at_once_one_wins_the_other_gets_a_conflict():
    setup = make_project(slug="decide", annotators=2, reviewers=2, concepts=ROUNDS)
    items = _submitted_items(setup, ROUNDS)
    first, second = setup.reviewers

    for round_, item in enumerate(items):
        decisions = PAIRS[round_ % len(PAIRS)]

        outcomes = run_together([_decide(decisions[0], item, first), _decide(decisions[1], item, second)])

        winners = [i for i, o in enumerate(outcomes) if o.error is None]
        assert len(winners) == 1, f"round {round_}: {[o.error for o in outcomes]}"
        winner, loser = winners[0], 1 - winners[0]
        assert type(outcomes[loser].error) is Conflict
        assert outcomes[loser].error.message == DECIDED
        reviews = list(Review.objects.filter(item=item).values_list("id", "item_version_id", "reviewer_id", "decision"))
        review = outcomes[winner].value
        assert reviews == [(review.pk, item.current_version_id, setup.reviewers[winner].pk, decisions[winner])]
        item.refresh_from_db()
        assert (item.status, item.reviewer_id) == (STATUS_AFTER[decisions[winner]], setup.reviewers[winner].pk)
        assert item.versions.count() == 1
        expected_feedback = (
            f"Terlalu umum ({setup.reviewers[winner].username})." if decisions[winner] == "revise" else ""
        )
        assert review.feedback == expected_feedback
        assert list(review.error_types.values_list("code", flat=True)) == (
            ["too_general"] if decisions[winner] == "revise" else []
        )
    assert Review.objects.count() == ROUNDS


def test_two_reviewers_claiming_at_once_never_get_the_same_item():
    setup = make_project(slug="claimrev", annotators=2, reviewers=2, concepts=2 * ROUNDS)
    items = _submitted_items(setup, 2 * ROUNDS)
    first, second = setup.reviewers
    seen: list[int] = []

    for round_ in range(ROUNDS):
        outcomes = run_together(
            [
                lambda: review_claim_next(project=setup.project, reviewer=first),
                lambda: review_claim_next(project=setup.project, reviewer=second),
            ]
        )

        assert [o.error for o in outcomes] == [None, None], f"round {round_}"
        got = [o.value.pk for o in outcomes]
        assert got[0] != got[1]
        assert dict(Item.objects.filter(pk__in=got).values_list("pk", "reviewer_id")) == {
            got[0]: first.pk,
            got[1]: second.pk,
        }
        seen += got
        for reviewer, claimed in zip(setup.reviewers, outcomes, strict=True):
            review_approve(item_id=claimed.value.pk, version_id=claimed.value.current_version_id, reviewer=reviewer)
    # Oldest first, each item to exactly one reviewer, none left over.
    assert sorted(seen) == sorted(i.pk for i in items)
    assert Review.objects.count() == 2 * ROUNDS
    assert review_claim_next(project=setup.project, reviewer=first) is None


def test_two_reviewers_racing_for_the_last_item_one_gets_it_the_other_gets_nothing():
    setup = make_project(slug="lastitem", annotators=2, reviewers=2, concepts=1)
    (item,) = _submitted_items(setup, 1)
    first, second = setup.reviewers

    outcomes = run_together(
        [
            lambda: review_claim_next(project=setup.project, reviewer=first),
            lambda: review_claim_next(project=setup.project, reviewer=second),
        ]
    )

    assert [o.error for o in outcomes] == [None, None]
    got = [o.value.pk if o.value else None for o in outcomes]
    assert sorted(got, key=str) == sorted([item.pk, None], key=str)
    winner = setup.reviewers[got.index(item.pk)]
    item.refresh_from_db()
    assert (item.status, item.reviewer_id) == (Item.Status.SUBMITTED, winner.pk)
