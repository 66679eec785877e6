"""Foreign keys of bulk writes checked once per write (annotation.foreign_keys), on PostgreSQL.

The fast path switches the per-row triggers off, so these tests check that it still refuses what the
triggers would have refused, locks the parents the triggers would have locked, and that a role
without the privilege gets the ordinary path with the same result.
"""

from __future__ import annotations

import json

import psycopg
import pytest
from django.db import IntegrityError, connection, transaction
from django.test.utils import CaptureQueriesContext

from annotation.foreign_keys import references_checked_once, triggers_can_be_skipped
from annotation.importing.bulkwrite import copy_lines, reserve_ids
from annotation.models import Item, Judgment
from annotation.services.imports import items_import
from tests.annotation.importing.messy import row
from tests.api.conftest import db_state
from tests.qc.helpers import make_item, make_project

pytestmark = pytest.mark.django_db(transaction=True)

JUDGMENT_FIELDS = (
    "id",
    "project",
    "item",
    "user",
    "kind",
    "round",
    "value",
    "flags",
    "comment",
    "created_at",
    "updated_at",
)


def _judgment_line(judgment_id: int, project_id: int, item_id: int, user_id: int) -> str:
    now = "2026-01-01T00:00:00+00:00"
    return f'{judgment_id}\t{project_id}\t{item_id}\t{user_id}\tanswer\t1\t{{"answer": "A"}}\t{{}}\t\t{now}\t{now}\n'


def _write_judgment(project_id: int, item_id: int, user_id: int) -> int:
    with references_checked_once() as bulk:
        assert bulk.skipping_triggers is True
        (judgment_id,) = reserve_ids(Judgment, 1)
        with bulk.triggers_off():
            copy_lines(Judgment, JUDGMENT_FIELDS, [_judgment_line(judgment_id, project_id, item_id, user_id)])
        bulk.wrote(Judgment, [judgment_id])
    return judgment_id


def test_the_tests_run_on_postgresql_as_a_role_that_may_skip_triggers():
    assert connection.vendor == "postgresql"
    assert triggers_can_be_skipped() is True


def test_a_reference_to_a_missing_row_is_refused_and_nothing_is_written():
    project, (author, user, *_) = make_project(slug="fk")
    item = make_item(project, author)
    before = db_state()
    with pytest.raises(IntegrityError) as refused, transaction.atomic():
        _write_judgment(project.pk, item.pk + 1000, user.pk)
    assert str(refused.value).endswith(f"points at annotation.Item {item.pk + 1000}, which does not exist (item).")
    assert str(refused.value).startswith("annotation.Judgment ")
    assert db_state() == before
    assert Judgment.objects.count() == 0


def test_a_missing_user_is_refused_too():
    project, (author, *_) = make_project(slug="fk")
    item = make_item(project, author)
    missing = r"points at auth\.User 987654, which does not exist \(user\)\."
    with pytest.raises(IntegrityError, match=missing), transaction.atomic():
        _write_judgment(project.pk, item.pk, 987654)
    assert Judgment.objects.count() == 0


def _other_connection() -> psycopg.Connection:
    """A second session on the test database, as a concurrent request would have."""
    settings = connection.settings_dict
    return psycopg.connect(
        host=settings["HOST"] or "127.0.0.1",
        port=settings["PORT"] or 5432,
        user=settings["USER"],
        dbname=settings["NAME"],
        autocommit=True,
    )


def test_the_parents_are_locked_until_the_write_commits():
    """Like the per-row check: a concurrent delete of the answering user has to wait."""
    project, (author, user, *_) = make_project(slug="fk")
    item = make_item(project, author)
    with transaction.atomic():
        judgment_id = _write_judgment(project.pk, item.pk, user.pk)
        with (
            _other_connection() as other,
            pytest.raises(psycopg.errors.LockNotAvailable),
        ):
            other.execute("SELECT id FROM auth_user WHERE id = %s FOR UPDATE NOWAIT", [user.pk])
    assert Judgment.objects.get().pk == judgment_id


def _file(n: int) -> bytes:
    return "\n".join(json.dumps(row(f"q{i}", author=f"W{1 + i % 6}")) for i in range(n)).encode()


def test_an_import_without_the_privilege_takes_the_ordinary_path_with_the_same_result():
    with connection.cursor() as cursor:
        cursor.execute("DROP ROLE IF EXISTS gotong_plain_role")
        cursor.execute("CREATE ROLE gotong_plain_role")
        cursor.execute("GRANT ALL ON ALL TABLES IN SCHEMA public TO gotong_plain_role")
        cursor.execute("GRANT ALL ON ALL SEQUENCES IN SCHEMA public TO gotong_plain_role")
    try:
        with transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute("SET LOCAL ROLE gotong_plain_role")
            assert triggers_can_be_skipped() is False
            plain = items_import(path_or_bytes=_file(12), project_slug="plain", format="id-csqa", language="id")
        fast = items_import(path_or_bytes=_file(12), project_slug="fast", format="id-csqa", language="id")
    finally:
        with connection.cursor() as cursor:
            cursor.execute("DROP OWNED BY gotong_plain_role")
            cursor.execute("DROP ROLE gotong_plain_role")
    assert (plain.items_created, plain.judgments_created) == (fast.items_created, fast.judgments_created) == (12, 60)
    shape = lambda slug: sorted(  # noqa: E731
        Item.objects.filter(project__slug=slug).values_list("external_id", "status", "gold_decision__outcome")
    )
    assert shape("plain") == shape("fast")
    assert len(shape("fast")) == 12


def _write_judgment_known(project_id: int, item_id: int, user_id: int, *, said_items: set[int]) -> int:
    """As _write_judgment, the writer telling the check which parents its rows point at."""
    with references_checked_once() as bulk:
        (judgment_id,) = reserve_ids(Judgment, 1)
        with bulk.triggers_off():
            copy_lines(Judgment, JUDGMENT_FIELDS, [_judgment_line(judgment_id, project_id, item_id, user_id)])
        bulk.wrote(Judgment, [judgment_id])
        bulk.points_at(Judgment, "item", said_items)
        bulk.points_at(Judgment, "user", {user_id})
    return judgment_id


def test_known_parents_are_checked_by_id_and_a_missing_one_is_refused():
    project, (author, user, *_) = make_project(slug="fk")
    item = make_item(project, author)
    before = db_state()
    with pytest.raises(IntegrityError) as refused, transaction.atomic():
        _write_judgment_known(project.pk, item.pk + 1000, user.pk, said_items={item.pk, item.pk + 1000})
    assert str(refused.value) == (
        f"A new annotation.Judgment points at annotation.Item {item.pk + 1000}, which does not exist (item)."
    )
    assert db_state() == before

    with transaction.atomic():
        written = _write_judgment_known(project.pk, item.pk, user.pk, said_items={item.pk})
    assert list(Judgment.objects.values_list("pk", "item_id", "user_id")) == [(written, item.pk, user.pk)]


def test_an_import_reads_back_only_the_references_to_its_own_rows_and_locks_the_parents_it_names():
    """The import names what its rows point at outside itself (the project, the file's annotators, the
    concepts): those are locked by id; only the references to its own new items and versions are looked
    for row by row, one anti-join each."""
    items_import(path_or_bytes=_file(6), project_slug="named", format="id-csqa", language="id")  # its annotators
    annotator = Item.objects.filter(project__slug="named").values_list("author_id", flat=True).first()
    more = "\n".join(json.dumps(row(f"more{i}", author=f"W{1 + i % 6}")) for i in range(6)).encode()
    with CaptureQueriesContext(connection) as queries, transaction.atomic():
        items_import(path_or_bytes=more, project_slug="named", format="id-csqa", language="id")
        with (
            _other_connection() as other,
            pytest.raises(psycopg.errors.LockNotAvailable),
        ):
            # A concurrent delete of an annotator would wait for the import, as with the per-row checks.
            other.execute("SELECT id FROM auth_user WHERE id = %s FOR UPDATE NOWAIT", [annotator])

    anti_joins = [q["sql"] for q in queries.captured_queries if "AND NOT EXISTS (SELECT 1 FROM" in q["sql"]]
    assert [(sql.split(" FROM ")[1].split()[0], sql.split("c.")[2].split()[0]) for sql in anti_joins] == [
        ('"annotation_item"', '"current_version_id"'),
        ('"annotation_itemversion"', '"item_id"'),
        ('"annotation_judgment"', '"item_id"'),
        ('"qc_golddecision"', '"item_id"'),
    ]
    assert Item.objects.filter(project__slug="named").count() == 12
