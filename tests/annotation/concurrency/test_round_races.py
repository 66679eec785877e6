"""Two judges finishing round 1 of the same item at the same moment: round 2 is planned exactly once."""

import pytest

from annotation.models import Assignment, Item, Judgment
from annotation.services.judging import judging_plan
from annotation.services.judgments import judgment_record
from tests.annotation.concurrency.helpers import make_user, run_together
from tests.annotation.tiny_task_type import make_rounds_project, rounds_task_type

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

ITEMS = 6


def test_two_judges_disagreeing_at_once_plan_round_two_exactly_once():
    with rounds_task_type():
        project, people, items = make_rounds_project(slug="race", annotators=6, items=ITEMS, make_user=make_user)
        judging_plan(project=project)
        for item in items:
            first, second = Assignment.objects.filter(target_item=item).order_by("user_id")

            outcomes = run_together(
                [
                    lambda a=first: judgment_record(assignment_id=a.pk, user=a.user, data={"label": "e"}),
                    lambda a=second: judgment_record(assignment_id=a.pk, user=a.user, data={"label": "c"}),
                ]
            )

            assert [o.error for o in outcomes] == [None, None]
            rows = list(Assignment.objects.filter(target_item=item).values_list("round", "status").order_by("round"))
            assert rows == [(1, "done"), (1, "done"), (2, "pending")]
            assert Item.objects.get(pk=item.pk).judging_round == 2
            assert sorted(Judgment.objects.filter(item=item).values_list("round", flat=True)) == [1, 1]
