"""annotation.db_settings.local_settings: PostgreSQL settings for a block, the caller's put back after it,
whether the block reads or writes; and the set-based gold recompute, which writes, leaves its caller's."""

import pytest
from django.db import DataError, connection, transaction

from annotation.db_settings import local_settings
from annotation.models import Category
from qc.gold import gold_recompute_project
from qc.models import GoldDecision
from tests.qc.helpers import add_judgment, make_item, make_project

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]


def current(cursor, *names):
    cursor.execute("SELECT " + ", ".join(["current_setting(%s)"] * len(names)), list(names))
    return cursor.fetchone()


def test_the_block_runs_with_its_settings_and_the_caller_gets_its_own_back_after_a_write():
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL work_mem = '7MB'; SET LOCAL jit = on")  # the caller's own, for its transaction
        assert current(cursor, "work_mem", "jit") == ("7MB", "on")
        project, _ = make_project(slug="settings", annotators=2, m=1)

        with local_settings(cursor, work_mem="128MB", jit="off"):
            inside = current(cursor, "work_mem", "jit")
            Category.objects.create(project=project, name="written inside")

        assert inside == ("128MB", "off")
        assert current(cursor, "work_mem", "jit") == ("7MB", "on")
    assert Category.objects.filter(project=project, name="written inside").count() == 1


def test_an_error_inside_leaves_the_settings_to_the_rollback_that_follows_it():
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL jit = on")
        with pytest.raises(DataError), transaction.atomic(), local_settings(cursor, jit="off"):
            assert current(cursor, "jit") == ("off",)
            cursor.execute("SELECT 1 / 0")
        assert current(cursor, "jit") == ("on",)


def test_the_set_based_gold_recompute_leaves_its_callers_settings():
    project, people = make_project(slug="setsgold", annotators=4, m=3)
    item = make_item(project, people[0], question="Q", answer="A")
    for person in people[1:]:
        add_judgment(item, person, "A")

    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL work_mem = '7MB'; SET LOCAL jit = on")  # the caller's own
        before = current(cursor, "work_mem", "jit", "parallel_setup_cost", "parallel_tuple_cost")
        gold_recompute_project(project=project)
        after = current(cursor, "work_mem", "jit", "parallel_setup_cost", "parallel_tuple_cost")

    assert before[:2] == ("7MB", "on")
    assert after == before
    assert GoldDecision.objects.get(item=item).outcome == "gold"
