"""The same author submitting the same assignment twice at once (double click, two tabs)."""

import pytest

from annotation.errors import IllegalTransition
from annotation.models import Assignment, Item, ItemVersion
from annotation.services.assignments import assignment_claim_next, assignment_plan_authoring
from annotation.services.items import item_save_draft, item_submit
from tests.annotation.concurrency.helpers import make_project, payload_for, run_together

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

ROUNDS = 10
ALREADY = "This item is already submitted."


def _submit(assignment, user, tag):
    return lambda: item_submit(assignment_id=assignment.pk, user=user, data=payload_for(assignment.concept.name, tag))


@pytest.mark.parametrize("with_draft", [False, True], ids=["fresh", "after-draft"])
def test_two_submits_of_one_assignment_at_once_keep_exactly_one_submission(with_draft):
    setup = make_project(slug="submit", annotators=2, concepts=ROUNDS)
    assignment_plan_authoring(project=setup.project)
    author = setup.annotators[0]
    for round_ in range(ROUNDS):
        assignment = assignment_claim_next(project=setup.project, user=author, kind=Assignment.Kind.AUTHOR)
        assignment.refresh_from_db()  # loads the concept for the question text
        if with_draft:
            item_save_draft(
                assignment_id=assignment.pk, user=author, data=payload_for(assignment.concept.name, "draft")
            )

        outcomes = run_together([_submit(assignment, author, "tab1"), _submit(assignment, author, "tab2")])

        winners = [i for i, o in enumerate(outcomes) if o.error is None]
        assert len(winners) == 1, f"round {round_}: {[o.error for o in outcomes]}"
        loser = outcomes[1 - winners[0]].error
        assert (type(loser), loser.message) == (IllegalTransition, ALREADY)
        items = list(Item.objects.filter(assignment=assignment))
        assert len(items) == 1
        item = items[0]
        assert item.status == Item.Status.SUBMITTED
        assert item.author_id == author.pk
        versions = list(ItemVersion.objects.filter(item=item).values_list("number", "payload", "submitted_at"))
        winning_tag = ("tab1", "tab2")[winners[0]]
        assert [(n, p) for n, p, _ in versions] == [(1, payload_for(assignment.concept.name, winning_tag))]
        assert versions[0][2] is not None
        assert item.current_version.number == 1
        assignment.refresh_from_db()
        assert (assignment.status, assignment.lease_expires_at) == (Assignment.Status.DONE, None)
    assert Item.objects.filter(project=setup.project).count() == ROUNDS
    assert ItemVersion.objects.filter(item__project=setup.project).count() == ROUNDS
