"""Skipping authoring and judging work: the reason is kept, the unit goes to someone else, never back."""

import pytest

from annotation.errors import IllegalTransition, InvalidInput, NotAllowed
from annotation.models import Assignment, Skip, WorkDraft
from annotation.services.assignments import assignment_plan_authoring
from annotation.services.drafts import work_draft_save
from annotation.services.items import item_save_draft, item_submit
from annotation.services.judging import judging_plan
from annotation.services.judgments import judgment_record
from annotation.services.skips import assignment_skip
from tests.annotation.views.helpers import db_snapshot
from tests.conftest import VALID_PAYLOAD
from tests.qc.helpers import make_item, make_project

pytestmark = pytest.mark.django_db


def holders(**unit):
    """user id -> status of every assignment of the unit."""
    return dict(Assignment.objects.filter(**unit).values_list("user_id", "status"))


@pytest.fixture
def authoring(csqa):
    # 3 annotators, 2 authors per concept: one annotator is free for every concept.
    assignment_plan_authoring(project=csqa.project)
    return csqa


def test_authoring_skip_keeps_the_reason_and_plans_the_unit_for_the_free_annotator(authoring):
    a1, a2, a3 = authoring.annotators
    assignment = Assignment.objects.filter(user=a1, kind="author").order_by("position").first()
    concept = assignment.concept
    free = ({a1.pk, a2.pk, a3.pk} - set(holders(concept=concept))).pop()
    work_draft_save(assignment_id=assignment.pk, user=a1, fields={"question": "Setengah"})

    skip = assignment_skip(
        assignment_id=assignment.pk, user=a1, reason="unknown_concept", note="  Belum pernah dengar "
    )

    assignment.refresh_from_db()
    assert (skip.reason, skip.note, skip.project_id, skip.assignment_id) == (
        "unknown_concept",
        "Belum pernah dengar",
        authoring.project.pk,
        assignment.pk,
    )
    assert (assignment.status, assignment.lease_expires_at) == ("cancelled", None)
    assert holders(concept=concept)[a1.pk] == "cancelled"
    assert holders(concept=concept)[free] == "pending"
    assert sorted(s for u, s in holders(concept=concept).items() if u != a1.pk) == ["pending", "pending"]
    assert not WorkDraft.objects.exists()


def test_a_replan_never_gives_the_skipped_unit_back(authoring):
    a1 = authoring.annotators[0]
    assignment = Assignment.objects.filter(user=a1, kind="author").order_by("position").first()
    assignment_skip(assignment_id=assignment.pk, user=a1, reason="unsuitable")
    before = holders(concept=assignment.concept)

    summary = assignment_plan_authoring(project=authoring.project)

    assert holders(concept=assignment.concept) == before
    assert before[a1.pk] == "cancelled"
    # The plan may even out loads elsewhere (a1 now has one unit less), but never reactivates the skip.
    assert summary.reactivated == 0


def test_skipping_work_already_submitted_is_refused_and_changes_nothing(authoring):
    a1 = authoring.annotators[0]
    assignment = Assignment.objects.filter(user=a1, kind="author").order_by("position").first()
    item_submit(assignment_id=assignment.pk, user=a1, data=VALID_PAYLOAD)
    before = db_snapshot()

    with pytest.raises(IllegalTransition) as refused:
        assignment_skip(assignment_id=assignment.pk, user=a1, reason="other")

    assert refused.value.message == "This assignment is already done; change your work instead."
    assert db_snapshot() == before
    assert not Skip.objects.exists()


def test_an_unsubmitted_draft_item_may_be_skipped(authoring):
    a1 = authoring.annotators[0]
    assignment = Assignment.objects.filter(user=a1, kind="author").order_by("position").first()
    item_save_draft(assignment_id=assignment.pk, user=a1, data=VALID_PAYLOAD)

    assignment_skip(assignment_id=assignment.pk, user=a1, reason="other", note="Salah kategori")

    assert Skip.objects.get().note == "Salah kategori"


@pytest.mark.parametrize(
    ("who", "reason", "error", "message"),
    [
        ("other", "other", NotAllowed, "This assignment is not yours."),
        ("owner", "bored", InvalidInput, "Choose why you skip it."),
    ],
)
def test_refused_skips_change_nothing(authoring, who, reason, error, message):
    a1, a2, _ = authoring.annotators
    assignment = Assignment.objects.filter(user=a1, kind="author").order_by("position").first()
    before = db_snapshot()

    with pytest.raises(error) as refused:
        assignment_skip(assignment_id=assignment.pk, user=a2 if who == "other" else a1, reason=reason)

    assert refused.value.message == message
    assert db_snapshot() == before
    assert not Skip.objects.exists()


@pytest.fixture
def judging(db):
    # 5 annotators, 3 judges per item besides its author: one annotator is free for each item.
    project, people = make_project(slug="sk", annotators=5, m=3, threshold=3)
    item = make_item(project, people[0])
    judging_plan(project=project)
    return project, people, item


def test_judging_skip_plans_the_item_for_the_free_judge_and_a_replan_keeps_the_skipper_out(judging):
    project, people, item = judging
    judges = holders(target_item=item)
    skipper = next(u for u in people if u.pk in judges)
    free = next(u for u in people[1:] if u.pk not in judges)
    assignment = Assignment.objects.get(target_item=item, user=skipper)

    assignment_skip(assignment_id=assignment.pk, user=skipper, reason="unsuitable", note="Pertanyaan ambigu")
    after_skip = holders(target_item=item)
    replan = judging_plan(project=project)

    assert after_skip[skipper.pk] == "cancelled"
    assert after_skip[free.pk] == "pending"
    assert sorted(after_skip.values()) == ["cancelled", "pending", "pending", "pending"]
    assert holders(target_item=item) == after_skip
    assert (replan.created, replan.reactivated) == (0, 0)
    replacement = Assignment.objects.get(target_item=item, user=free)
    assert (replacement.round, replacement.target_author_id, replacement.kind) == (1, people[0].pk, "answer")


def test_with_nobody_free_the_skip_is_kept_and_nothing_is_planned(judging):
    project, people, item = judging
    judges = holders(target_item=item)
    free = next(u for u in people[1:] if u.pk not in judges)
    first, second = [u for u in people if u.pk in judges][:2]
    assignment_skip(
        assignment_id=Assignment.objects.get(target_item=item, user=first).pk, user=first, reason="unknown_concept"
    )

    assignment_skip(assignment_id=Assignment.objects.get(target_item=item, user=second).pk, user=second, reason="other")

    assert Skip.objects.count() == 2
    assert holders(target_item=item)[free.pk] == "pending"
    assert sorted(holders(target_item=item).values()) == ["cancelled", "cancelled", "pending", "pending"]


def test_an_answered_item_cannot_be_skipped(judging):
    project, people, item = judging
    judge = next(u for u in people if u.pk in holders(target_item=item))
    assignment = Assignment.objects.get(target_item=item, user=judge)
    judgment_record(assignment_id=assignment.pk, user=judge, data={"answer": "A"})
    before = db_snapshot()

    with pytest.raises(IllegalTransition) as refused:
        assignment_skip(assignment_id=assignment.pk, user=judge, reason="other")

    assert refused.value.message == "This assignment is already done; change your work instead."
    assert db_snapshot() == before
