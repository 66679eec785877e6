"""Cross-answer planning: m answerers per approved item, never the author, balanced, stable on re-plan."""

from collections import Counter

import pytest
from django.db.models import F

from annotation.errors import InvalidInput
from annotation.models import Assignment, Item, Membership
from annotation.services.assignments import assignment_claim_next
from annotation.services.judging import judging_plan
from annotation.services.judgments import judgment_record
from annotation.services.projects import membership_deactivate
from tests.qc.helpers import CLEAR, add_judgment, make_item, make_project

pytestmark = pytest.mark.django_db

CATEGORIES = ["culinary", "place", "culture"]


def _project_with_items(*, annotators=7, per_author=3, slug="xa"):
    project, people = make_project(slug=slug, annotators=annotators)
    items = [
        make_item(project, author, category=CATEGORIES[(i + n) % 3], question=f"Q{i}-{n}")
        for i, author in enumerate(people)
        for n in range(per_author)
    ]
    return project, people, items


def _plan_pairs(project):
    return set(
        Assignment.objects.filter(project=project, kind="answer")
        .exclude(status=Assignment.Status.CANCELLED)
        .values_list("target_item_id", "user_id")
    )


def test_every_item_gets_m_answerers_never_its_author_with_loads_within_one():
    project, people, items = _project_with_items()

    summary = judging_plan(project=project)

    assert (summary.created, summary.reactivated, summary.moved, summary.items, summary.workers) == (105, 0, 0, 21, 7)
    rows = list(
        Assignment.objects.filter(project=project, kind="answer").values_list(
            "target_item_id", "user_id", "target_author_id", "target_item__author_id", "status"
        )
    )
    per_item = Counter(item_id for item_id, *_ in rows)
    assert per_item == {item.pk: 5 for item in items}
    assert len({(item_id, user_id) for item_id, user_id, *_ in rows}) == 105
    assert all(user_id != author_id for _, user_id, author_id, _, _ in rows)
    assert all(target_author == author for _, _, target_author, author, _ in rows)
    assert {status for *_, status in rows} == {"pending"}
    loads = Counter(user_id for _, user_id, *_ in rows)
    assert sorted(loads.values()) == [15] * 7


def test_plan_is_deterministic_per_seed():
    project, _, _ = _project_with_items()
    judging_plan(project=project, seed=11)
    first = _plan_pairs(project)
    Assignment.objects.filter(project=project).delete()

    judging_plan(project=project, seed=11)
    again = _plan_pairs(project)
    Assignment.objects.filter(project=project).delete()
    judging_plan(project=project, seed=12)
    other = _plan_pairs(project)

    assert again == first
    assert other != first


def test_replan_adds_items_approved_later_and_moves_nothing():
    project, people, items = _project_with_items()
    judging_plan(project=project)
    before = set(Assignment.objects.filter(project=project).values_list("pk", "target_item_id", "user_id", "position"))
    later = [make_item(project, people[0], category="place", question=f"late {n}") for n in range(3)]
    draft = make_item(project, people[1], status=Item.Status.SUBMITTED, question="not yet approved")

    summary = judging_plan(project=project)

    assert (summary.created, summary.reactivated, summary.moved, summary.items) == (15, 0, 0, 24)
    after = set(Assignment.objects.filter(project=project).values_list("pk", "target_item_id", "user_id", "position"))
    assert before <= after
    new = after - before
    assert Counter(item_id for _, item_id, _, _ in new) == {item.pk: 5 for item in later}
    assert all(user_id != people[0].pk for _, _, user_id, _ in new)
    assert min(position for *_, position in new) > max(position for *_, position in before)
    assert not Assignment.objects.filter(target_item=draft).exists()
    assert judging_plan(project=project).created == 0


def test_leaving_annotator_open_work_moves_to_others_done_work_stays():
    project, people, items = _project_with_items()
    judging_plan(project=project)
    leaver = people[2]
    done = assignment_claim_next(project=project, user=leaver, kind="answer")
    judgment_record(
        assignment_id=done.pk,
        user=leaver,
        data={"answer": "B", "uncertain": False, "question_ambiguous": False, "option_ambiguous": CLEAR},
    )
    active = assignment_claim_next(project=project, user=leaver, kind="answer")
    open_before = set(
        Assignment.objects.filter(user=leaver, status__in=["pending", "active"]).values_list("pk", flat=True)
    )
    assert len(open_before) == 14 and active.pk in open_before
    membership_deactivate(membership=Membership.objects.get(project=project, user=leaver))

    summary = judging_plan(project=project)

    assert (summary.created, summary.moved, summary.workers) == (14, 14, 6)
    statuses = dict(Assignment.objects.filter(user=leaver).values_list("pk", "status"))
    assert statuses == {done.pk: "done", **dict.fromkeys(open_before, "cancelled")}
    live = Counter(
        Assignment.objects.filter(project=project).exclude(status="cancelled").values_list("target_item_id", flat=True)
    )
    assert live == {item.pk: 5 for item in items}
    assert not Assignment.objects.filter(user=F("target_item__author")).exists()


def test_answers_already_given_count_and_are_not_planned_again():
    project, people, _ = _project_with_items(per_author=0)
    item = make_item(project, people[0])
    for user in people[1:6]:
        add_judgment(item, user, "A")

    summary = judging_plan(project=project)

    assert (summary.created, summary.items) == (0, 1)
    assert not Assignment.objects.filter(project=project).exists()


def test_not_enough_annotators_is_refused_and_nothing_is_planned():
    project, people, _ = _project_with_items(annotators=5, per_author=1)

    with pytest.raises(InvalidInput) as refused:
        judging_plan(project=project)

    assert refused.value.message == (
        "Cross-answering needs at least 6 active annotators (5 answerers per item besides its author); "
        "the project has 5."
    )
    assert not Assignment.objects.filter(project=project).exists()


def test_an_item_whose_author_is_unknown_gets_answerers_without_a_target_author():
    project, people, _ = _project_with_items(per_author=0)
    item = make_item(project, None, question="Penulis tidak diketahui")

    summary = judging_plan(project=project)

    assert summary.created == 5
    rows = list(Assignment.objects.filter(target_item=item).values_list("target_author_id", "status"))
    assert rows == [(None, "pending")] * 5
