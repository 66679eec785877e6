"""The per-judge tallies (AssignmentTally) that PostgreSQL keeps with statement-level triggers stay
equal to counting the assignments after bulk inserts (COPY, bulk_create, per-row triggers off),
multi-row updates (status and owner changes), deletes and a rolled-back write."""

import pytest
from django.db import connection, transaction
from django.db.models import Count

from annotation.foreign_keys import _replica_role
from annotation.models import Assignment, AssignmentTally
from annotation.services.judging import judging_plan
from tests.annotation.task_types.csqa.world import make_world

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]


def counted(project) -> dict[tuple[int, str, str], int]:
    return {
        (user_id, kind, status): n
        for user_id, kind, status, n in Assignment.objects.filter(project=project)
        .values_list("user_id", "kind", "status")
        .annotate(n=Count("id"))
        .order_by()
    }


def tallied(project) -> dict[tuple[int, str, str], int]:
    return {
        (user_id, kind, status): n
        for user_id, kind, status, n in AssignmentTally.objects.filter(project=project).values_list(
            "user_id", "kind", "status", "n"
        )
        if n != 0
    }


@pytest.fixture
def planned():
    assert connection.vendor == "postgresql"  # the triggers exist only there; this test must run on it
    world = make_world(slug="tallies", items_per_author=3)
    judging_plan(project=world.project)
    return world


def test_the_plan_is_tallied_as_counted(planned):
    # 12 items, each to the 3 annotators who did not write it: 9 pending per annotator.
    assert tallied(planned.project) == {(p.pk, "answer", "pending"): 9 for p in planned.people}
    assert tallied(planned.project) == counted(planned.project)


def test_bulk_inserts_with_per_row_triggers_off_are_tallied(planned):
    project, first, second = planned.project, planned.people[0], planned.people[1]
    template = Assignment.objects.filter(project=project, user=first).order_by("pk")
    items = list(template.values_list("target_item_id", "target_author_id"))
    Assignment.objects.filter(project=project, user=first).delete()
    with transaction.atomic(), _replica_role(True):
        Assignment.objects.bulk_create(
            [
                Assignment(project=project, user=first, kind="answer", target_item_id=i, target_author_id=a)
                for i, a in items[:5]
            ]
        )
        with (
            connection.cursor() as cursor,
            cursor.copy(
                "COPY annotation_assignment (project_id, user_id, kind, target_item_id, target_author_id, status, "
                "round, position, created_at) FROM STDIN"
            ) as copy,
        ):
            for n, (item_id, author_id) in enumerate(items[5:]):
                copy.write_row((project.pk, first.pk, "answer", item_id, author_id, "done", 1, n, "2026-11-24"))

    assert tallied(project)[(first.pk, "answer", "pending")] == 5
    assert tallied(project)[(first.pk, "answer", "done")] == 4
    assert tallied(project)[(second.pk, "answer", "pending")] == 9
    assert tallied(project) == counted(project)


def test_multi_row_updates_move_counts_between_statuses_and_judges(planned):
    project, first, second = planned.project, planned.people[0], planned.people[1]
    ids = list(Assignment.objects.filter(project=project, user=first).order_by("pk").values_list("pk", flat=True))
    Assignment.objects.filter(pk__in=ids[:4]).update(status="done")
    Assignment.objects.filter(pk__in=ids[4:6]).update(status="active")
    # Owner and status at once (a leaver's work handed over): both judges' tallies move.
    free = (
        Assignment.objects.filter(pk__in=ids[6:])
        .exclude(target_author=second)
        .exclude(target_item__in=Assignment.objects.filter(user=second).values("target_item"))
    )
    moved = free.update(user=second, status="pending")
    Assignment.objects.filter(pk__in=ids).exclude(user=second).filter(status="pending").update(status="cancelled")
    # An update that changes nothing leaves the tallies as they are.
    Assignment.objects.filter(project=project, status="done").update(status="done")

    assert tallied(project) == counted(project)
    assert tallied(project)[(first.pk, "answer", "done")] == 4
    assert tallied(project)[(first.pk, "answer", "active")] == 2
    assert tallied(project)[(second.pk, "answer", "pending")] == 9 + moved


def test_deletes_and_rolled_back_writes(planned):
    project, first = planned.project, planned.people[0]
    Assignment.objects.filter(project=project, user=first, target_author=planned.people[1]).delete()
    with pytest.raises(RuntimeError), transaction.atomic():
        Assignment.objects.filter(project=project).update(status="done")
        raise RuntimeError("rolled back")

    assert tallied(project)[(first.pk, "answer", "pending")] == 6
    assert tallied(project) == counted(project)
    Assignment.objects.filter(project=project).delete()
    assert tallied(project) == {} == counted(project)
