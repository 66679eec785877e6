"""The judging engine over a rule with rounds (a test-only task type): round n planned when asked."""

import pytest

from annotation.errors import InvalidInput
from annotation.models import Assignment, Item, Judgment
from annotation.services.judging import in_share, judging_plan, judging_plan_next_rounds, pick_judges
from annotation.services.judgments import judgment_record
from qc.models import GoldDecision
from tests.annotation.tiny_task_type import make_rounds_project, rounds_task_type
from tests.qc.helpers import make_user

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _rounds():
    with rounds_task_type():
        yield


def _judge(item, round_, label):
    done = []
    for a in Assignment.objects.filter(target_item=item, round=round_, status="pending").select_related("user"):
        judgment_record(assignment_id=a.pk, user=a.user, data={"label": label if not done else label.upper()})
        done.append(a.user_id)
    return done


def test_disagreement_plans_round_two_for_the_least_loaded_eligible_judge_then_settles():
    project, people, items = make_rounds_project(slug="r", annotators=5, items=2, make_user=make_user)
    summary = judging_plan(project=project)
    assert (summary.created, summary.items) == (4, 2)
    assert set(Item.objects.values_list("judging_round", flat=True)) == {1}
    item = items[0]
    first_judges = set(Assignment.objects.filter(target_item=item).values_list("user_id", flat=True))

    a, b = Assignment.objects.filter(target_item=item).select_related("user").order_by("user_id")
    judgment_record(assignment_id=a.pk, user=a.user, data={"label": "e"})
    assert not Assignment.objects.filter(target_item=item, round=2).exists()
    judgment_record(assignment_id=b.pk, user=b.user, data={"label": "c"})

    third = Assignment.objects.get(target_item=item, round=2)
    open_loads = {
        u.pk: Assignment.objects.filter(user=u, status="pending").exclude(pk=third.pk).count() for u in people[1:]
    }
    eligible = [u.pk for u in people[1:] if u.pk not in first_judges]
    assert third.user_id in eligible and third.user_id != people[0].pk
    assert open_loads[third.user_id] == min(open_loads[u] for u in eligible)
    assert (third.kind, third.status, Item.objects.get(pk=item.pk).judging_round) == ("validate", "pending", 2)

    judgment_record(assignment_id=third.pk, user=third.user, data={"label": "c"})

    decision = GoldDecision.objects.get(item=item)
    assert (decision.policy, decision.outcome, decision.details) == ("rounds_test_v1", "gold", {"label": "c"})
    assert Judgment.objects.get(assignment=third).round == 2
    assert Item.objects.get(pk=item.pk).status == "gold"


def test_no_gold_keeps_the_reason_on_the_item():
    project, people, items = make_rounds_project(slug="n", annotators=5, items=1, make_user=make_user)
    judging_plan(project=project)
    a, b = Assignment.objects.filter(target_item=items[0]).select_related("user").order_by("user_id")
    judgment_record(assignment_id=a.pk, user=a.user, data={"label": "e"})
    judgment_record(assignment_id=b.pk, user=b.user, data={"label": "c"})
    third = Assignment.objects.select_related("user").get(target_item=items[0], round=2)

    judgment_record(assignment_id=third.pk, user=third.user, data={"label": "n"})

    item = Item.objects.get(pk=items[0].pk)
    assert (item.status, item.status_reason, item.judging_round) == ("judged", "No label twice.", 2)
    assert GoldDecision.objects.get(item=item).outcome == "no_gold"


def test_catch_up_plans_the_rounds_that_decisions_ask_for_once():
    project, people, items = make_rounds_project(slug="c", annotators=5, items=3, make_user=make_user)
    judging_plan(project=project)
    # Imported-like judgments: written directly, no assignment, then the catch-up runs.
    for n, item in enumerate(items):
        for a, label in zip(
            Assignment.objects.filter(target_item=item).order_by("user_id"), ("e", "c" if n else "e"), strict=True
        ):
            Judgment.objects.create(
                project=project,
                item=item,
                user_id=a.user_id,
                item_author=item.author,
                kind="validate",
                value={"label": label},
                assignment=a,
            )
            Assignment.objects.filter(pk=a.pk).update(status="done")

    summary = judging_plan_next_rounds(project=project)
    again = judging_plan_next_rounds(project=project)

    assert (summary.created, summary.items) == (2, 2)
    assert again.created == 0
    assert dict(Item.objects.values_list("pk", "judging_round")) == {items[0].pk: 1, items[1].pk: 2, items[2].pk: 2}
    assert Assignment.objects.filter(round=2).count() == 2


def test_share_is_reproducible_and_a_rule_without_judging_is_refused():
    picks = [i for i in range(1000) if in_share(seed=7, item_id=i, share=0.3)]
    assert picks == [i for i in range(1000) if in_share(seed=7, item_id=i, share=0.3)]
    assert 250 < len(picks) < 350
    assert all(in_share(seed=7, item_id=i, share=1.0) for i in range(10))
    assert pick_judges(candidates=[5, 3, 9], loads={5: 1}, ranks={9: 0, 3: 1, 5: 2}, need=2) == [9, 3]


def test_not_enough_annotators_for_round_one_is_refused_and_nothing_planned():
    project, people, items = make_rounds_project(slug="f", annotators=2, items=1, make_user=make_user)
    with pytest.raises(InvalidInput) as refused:
        judging_plan(project=project)
    assert refused.value.message == (
        "Judging needs at least 3 active annotators (2 judges per item besides its author); the project has 2."
    )
    assert not Assignment.objects.filter(project=project, kind="validate").exists()
    assert Item.objects.get(pk=items[0].pk).judging_round == 0
