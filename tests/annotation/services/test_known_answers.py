"""Known-answer checks: marked by an admin, mixed into judges' queues at the project's rate, never
counted in gold, agreement or reports, scored per judge, and pausing a judge who misses too many."""

import pytest

from annotation.checks import CheckScore, mix_checks, pause_due, score_checks
from annotation.errors import IllegalTransition, InvalidInput, Paused
from annotation.models import Assignment, Item, Judgment, Membership
from annotation.selectors.known_answers import check_scores
from annotation.services.assignments import assignment_claim_next
from annotation.services.judging import judging_plan
from annotation.services.judgments import judgment_record
from annotation.services.known_answers import item_set_known_answer, member_resume, pause_gate
from qc.gold import gold_recompute_project
from qc.reports import alpha_for_project, project_report
from tests.qc.helpers import add_judgment, make_item, make_project

pytestmark = pytest.mark.django_db


# --- the pure part ---------------------------------------------------------------------------------


def test_mix_puts_a_check_after_every_n_minus_one_items_of_each_judge_at_unit_ends():
    items = [1, 1, 2, 2, 3, 3, 4, 4]
    users = [10, 20, 10, 20, 10, 20, 10, 20]

    out_items, out_users = mix_checks(item_ids=items, user_ids=users, checks=[90, 91], every=3, seed=0)

    # Each judge's 3rd and 6th items are checks (rate 1 in 3), each check once per judge, after item runs.
    assert (out_items, out_users) == (
        [1, 1, 2, 2, 91, 91, 3, 3, 4, 4, 90, 90],
        [10, 20, 10, 20, 10, 20, 10, 20, 10, 20, 10, 20],
    )


def test_mix_is_the_same_for_a_seed_and_refuses_a_judges_own_checks():
    items, users = [1, 2, 3, 4], [10, 10, 10, 10]
    first = mix_checks(item_ids=items, user_ids=users, checks=[90, 91, 92], every=2, seed=5)

    assert first == ([1, 91, 2, 92, 3, 90, 4], [10] * 7)
    assert mix_checks(item_ids=items, user_ids=users, checks=[90, 91, 92], every=2, seed=5) == first
    assert mix_checks(item_ids=items, user_ids=users, checks=[90, 91], every=2, seed=5, refused={10: {90}}) == (
        [1, 91, 2, 3, 4],
        [10, 10, 10, 10, 10],
    )
    assert mix_checks(item_ids=items, user_ids=users, checks=[90], every=0, seed=5) == (items, users)


def test_scores_and_the_pause_rule():
    rows = [(1, {"answer": "A"}, "A"), (1, {"answer": "B"}, "A"), (2, {"answer": "C"}, "C"), (1, {}, "A")]

    scores = score_checks(rows, lambda value: value.get("answer"))

    assert scores == {1: CheckScore(checks=3, correct=1), 2: CheckScore(checks=1, correct=1)}
    assert (scores[1].percent, scores[2].accuracy) == (33, 1.0)
    assert pause_due(scores[1], below_percent=50, after_checks=3) is True
    assert pause_due(scores[1], below_percent=50, after_checks=4) is False
    assert pause_due(scores[1], below_percent=0, after_checks=1) is False
    assert pause_due(CheckScore(checks=2, correct=1), below_percent=50, after_checks=2) is False  # 50% is not below


# --- marking ---------------------------------------------------------------------------------------


def test_an_admin_marks_an_approved_item_and_unmarks_it():
    project, people = make_project(slug="ka-mark", annotators=3, m=2)
    item = make_item(project, people[0], answer="B")

    item_set_known_answer(item_id=item.pk, project=project, answer="C")
    item.refresh_from_db()
    assert (item.status, item.known_answer) == ("check", "C")

    item_set_known_answer(item_id=item.pk, project=project, answer="")
    item.refresh_from_db()
    assert (item.status, item.known_answer) == ("approved", "")


def test_marking_refuses_an_answer_outside_the_task_types_vocabulary_and_a_draft():
    project, people = make_project(slug="ka-bad", annotators=3, m=2)
    item = make_item(project, people[0])
    draft = make_item(project, people[0], status=Item.Status.SUBMITTED, question="draft")

    with pytest.raises(InvalidInput) as bad:
        item_set_known_answer(item_id=item.pk, project=project, answer="F")
    with pytest.raises(IllegalTransition) as early:
        item_set_known_answer(item_id=draft.pk, project=project, answer="A")

    assert bad.value.message == "“F” is not an answer of this item."
    assert bad.value.field_errors == {"known_answer": ["Choose one of: A, B, C, D, E."]}
    assert early.value.message == "Only approved items can be known-answer checks; this one is submitted."
    assert list(Item.objects.filter(project=project).order_by("pk").values_list("status", "known_answer")) == [
        ("approved", ""),
        ("submitted", ""),
    ]


# --- never counted ---------------------------------------------------------------------------------


def _judged_project(slug, *, with_check):
    project, people = make_project(slug=slug, annotators=4, m=3)
    items = [make_item(project, people[i % 4], question=f"Q{i}", answer="A") for i in range(4)]
    for item in items:
        judges = [p for p in people if p != item.author][:3]
        for judge, answer in zip(judges, ["A", "A", "B"], strict=True):
            add_judgment(item, judge, answer)
    if with_check:
        check = make_item(project, people[0], question="check", answer="D")
        item_set_known_answer(item_id=check.pk, project=project, answer="D")
        for judge, answer in zip(people[1:], ["D", "E", "E"], strict=True):
            add_judgment(check, judge, answer)
    gold_recompute_project(project=project)
    return project


def test_a_check_is_never_in_gold_agreement_or_the_report():
    plain = _judged_project("ka-plain", with_check=False)
    checked = _judged_project("ka-check", with_check=True)

    report_plain = project_report(project=plain)
    report_checked = project_report(project=checked)

    assert {k: v for k, v in report_checked.items() if k != "project"} == {
        k: v for k, v in report_plain.items() if k != "project"
    }
    assert alpha_for_project(project=checked) == alpha_for_project(project=plain)
    assert Item.objects.get(project=checked, status="check").known_answer == "D"
    assert not Item.objects.filter(project=checked, status="check", gold_decision__isnull=False).exists()


# --- in the queues ---------------------------------------------------------------------------------


def _queue(project, user):
    return list(
        Assignment.objects.filter(project=project, user=user, kind="answer")
        .order_by("position", "id")
        .values_list("target_item__status", flat=True)
    )


def test_the_plan_mixes_checks_in_at_the_projects_rate_the_same_for_a_seed():
    project, people = make_project(slug="ka-plan", annotators=4, m=2)
    for i in range(12):
        make_item(project, people[i % 4], question=f"Q{i}")
    checks = [make_item(project, people[0], question=f"check {n}") for n in range(2)]
    for check in checks:
        item_set_known_answer(item_id=check.pk, project=project, answer="A")
    project.check_every = 3
    project.save(update_fields=["check_every"])

    judging_plan(project=project)

    # people[0] wrote both checks: never theirs. The others get one in three until the checks run out.
    assert _queue(project, people[0]) == ["approved"] * 6
    mixed = ["approved", "approved", "check", "approved", "approved", "check", "approved", "approved"]
    assert _queue(project, people[1]) == mixed
    assert _queue(project, people[2]) == mixed
    first = list(
        Assignment.objects.filter(project=project).order_by("position", "id").values_list("target_item", "user")
    )
    Assignment.objects.filter(project=project).delete()
    judging_plan(project=project)
    assert (
        list(Assignment.objects.filter(project=project).order_by("position", "id").values_list("target_item", "user"))
        == first
    )


def _paused_world(slug):
    project, people = make_project(slug=slug, annotators=3, m=1)
    checks = [make_item(project, people[0], question=f"check {n}") for n in range(3)]
    for check in checks:
        item_set_known_answer(item_id=check.pk, project=project, answer="A")
    for n in range(6):
        make_item(project, people[0], question=f"ordinary {n}")
    project.check_every = 2
    project.pause_below_percent = 60
    project.pause_after_checks = 2
    project.save(update_fields=["check_every", "pause_below_percent", "pause_after_checks"])
    judging_plan(project=project)
    return project, people


def _answer_checks(project, judge, answers):
    for assignment in Assignment.objects.filter(project=project, user=judge, target_item__status="check").order_by(
        "position"
    )[: len(answers)]:
        judgment_record(assignment_id=assignment.pk, user=judge, data={"answer": answers.pop(0)})


def test_accuracy_is_exact_and_a_judge_below_the_floor_after_n_checks_is_paused_until_resumed():
    project, people = _paused_world("ka-pause")
    judge, admin = people[1], project.created_by

    _answer_checks(project, judge, ["A"])
    assert Membership.objects.get(project=project, user=judge).paused_at is None
    _answer_checks(project, judge, ["B"])  # its first check again: the same judgment, still right
    _answer_checks(project, judge, ["A", "C"])

    assert check_scores(project=project)[judge.pk] == CheckScore(checks=2, correct=1)
    membership = Membership.objects.get(project=project, user=judge)
    assert membership.pause_figures == {"checks": 2, "correct": 1, "below": 60, "since_resume": False}
    before = list(Assignment.objects.filter(user=judge).order_by("pk").values_list("pk", "status", "lease_expires_at"))
    with pytest.raises(Paused) as refused:
        assignment_claim_next(project=project, user=judge, kind="answer")
    assert refused.value.message == (
        "Your work here is paused for now: 1 of the 2 quality-check items you answered matched their expected "
        "answers, below the project's 60%. A project admin has been told and can resume your work. Thank you for "
        "your patience."
    )
    assert (
        list(Assignment.objects.filter(user=judge).order_by("pk").values_list("pk", "status", "lease_expires_at"))
        == before
    )

    resumed = member_resume(membership=membership, actor=admin)

    assert (resumed.paused_at, resumed.unpaused_by_id) == (None, admin.pk)
    pause_gate(project=project, user_id=judge.pk)  # no longer refused
    assert assignment_claim_next(project=project, user=judge, kind="answer") is not None
    with pytest.raises(IllegalTransition):
        member_resume(membership=resumed, actor=admin)


def test_a_pause_after_a_resume_counts_and_says_since_the_last_resume():
    project, people = _paused_world("ka-again")
    judge, admin = people[1], project.created_by
    _answer_checks(project, judge, ["A", "C"])
    member_resume(membership=Membership.objects.get(project=project, user=judge), actor=admin)

    _answer_checks(project, judge, ["B", "B"])  # both answers changed after the resume: 0 of 2 since

    membership = Membership.objects.get(project=project, user=judge)
    assert membership.pause_figures == {"checks": 2, "correct": 0, "below": 60, "since_resume": True}
    with pytest.raises(Paused) as refused:
        pause_gate(project=project, user_id=judge.pk)
    assert refused.value.message == (
        "Your work here is paused for now: 0 of the 2 quality-check items you answered since your last resume "
        "matched their expected answers, below the project's 60%. A project admin has been told and can resume "
        "your work. Thank you for your patience."
    )


def test_a_check_answer_makes_no_gold_decision_and_no_next_round():
    project, people = _paused_world("ka-nogold")
    _answer_checks(project, people[1], ["A"])

    assert Judgment.objects.filter(project=project, item__status="check").count() == 1
    assert not Item.objects.filter(project=project, status="check", gold_decision__isnull=False).exists()


def test_a_paused_judges_api_claim_is_refused_with_the_reason_and_changes_nothing_and_the_page_says_so():
    from django.test import Client

    from tests.api.conftest import client_for, db_state

    project, people = _paused_world("ka-api")
    judge = people[1]
    _answer_checks(project, judge, ["B", "C"])
    api = client_for(judge)
    before = db_state()

    response = api.post(f"/api/projects/{project.slug}/judgments/next/", {}, format="json")

    assert response.status_code == 403
    assert response.json()["code"] == "paused"
    assert db_state() == before
    page = Client()
    page.force_login(judge)
    queue = page.get(f"/p/{project.slug}/answer/")
    assert queue.status_code == 403
    assert b'id="pause-message"' in queue.content
    assert b"0 of the 2 quality-check items you answered matched" in queue.content
