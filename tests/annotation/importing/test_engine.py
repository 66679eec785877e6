"""The generic import engine: formats from the registry, all or nothing, idempotent, COPY on PostgreSQL."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.db import IntegrityError, connection

from annotation.errors import InvalidInput
from annotation.importing import engine
from annotation.importing.records import FileScan, Importer, ImportFileError, ImportJudgment, ImportRecord, ImportUnit
from annotation.models import Item, ItemVersion, Judgment
from annotation.services import imports
from annotation.services.imports import ImportFormat, import_formats, items_import
from qc.models import GoldDecision
from tests.annotation.importing.messy import messy_bytes, row
from tests.api.conftest import db_state

pytestmark = pytest.mark.django_db


def _rows(n: int) -> bytes:
    return "\n".join(json.dumps(row(f"q{i}", author=f"W{1 + i % 6}")) for i in range(n)).encode()


def test_the_registry_lists_every_tasks_types_formats():
    assert [(f.name, f.task_type) for f in import_formats()] == [
        ("arabculture", "sentence_completion"),
        ("id-csqa", "csqa"),
        ("indonli", "nli"),
        ("indopref", "preference"),
        ("kalahi", "cultural_prompt"),
        ("mnli", "nli"),
        ("preference-prompts", "preference"),
        ("sentiment-jsonl", "sentiment"),  # the tutorial's task type, registered by the test settings
    ]
    assert [f.name for f in import_formats(task_type="nli")] == ["indonli", "mnli"]


def test_an_unknown_format_is_refused_with_the_known_ones():
    before = db_state()

    with pytest.raises(InvalidInput) as refused:
        items_import(path_or_bytes=messy_bytes(), project_slug="x", format="squad", language="id")

    assert (
        refused.value.message == "Unknown import format “squad”; known formats: "
        "arabculture, id-csqa, indonli, indopref, kalahi, mnli, preference-prompts, sentiment-jsonl."
    )
    assert db_state() == before


class _BreaksHalfWay(Importer):
    """Yields whole batches of good records, then finds the file unreadable. (Like every importer, it
    reads no database: on PostgreSQL the engine's COPYs of one batch run while it reads the next.)"""

    name = "breaks"
    label = "test"

    def scan(self, stream, *, known_annotators, max_annotators):
        return FileScan(annotators=("W1", "W2"), rows=7)

    def records(self, stream, *, scan):
        for i in range(6):
            yield ImportRecord(
                row=i + 1,
                external_id=f"b{i}",
                payload={"question": f"Q{i}?", "choices": ["a", "b", "c", "d", "e"], "answer": "A"},
                unit=ImportUnit("culinary", f"c{i}"),
                author="W1",
                judgments=(ImportJudgment("W2", 1, {"answer": "A"}),),
                judging_round=1,
            )
        raise ImportFileError("Line 7 is broken; nothing was imported.")


def test_a_file_refused_half_way_leaves_nothing_behind(monkeypatch):
    """Three batches of two items were written and decided (COPY on PostgreSQL) before the file turned out bad."""
    monkeypatch.setattr(imports, "import_format", lambda name: ImportFormat("breaks", "t", "csqa", _BreaksHalfWay()))
    monkeypatch.setattr("annotation.importing.engine.BATCH", 2)
    written = []
    for writer in (engine._CopyWriter, engine._OrmWriter):

        def close_and_count(self, *, quietly=False, close=writer.close):
            close(self, quietly=quietly)  # what was sent is written by now, before the rollback
            half = Item.objects.filter(project__slug="half")
            written.append((half.count(), GoldDecision.objects.filter(item__in=half).count()))

        monkeypatch.setattr(writer, "close", close_and_count)
    before = db_state()

    with pytest.raises(InvalidInput) as refused:
        items_import(path_or_bytes=b"x", project_slug="half", format="breaks", language="id")

    assert refused.value.message == "Line 7 is broken; nothing was imported."
    assert written == [(6, 6)]
    assert db_state() == before


def test_reimporting_creates_nothing_and_counts_exactly():
    first = items_import(path_or_bytes=_rows(30), project_slug="again", format="id-csqa", language="id")
    state = db_state()

    second = items_import(path_or_bytes=_rows(30), project_slug="again", format="id-csqa", language="id")
    unchanged = db_state() == state
    third = items_import(path_or_bytes=_rows(35), project_slug="again", format="id-csqa", language="id")

    assert (first.items_created, first.judgments_created, first.annotators_created) == (30, 150, 6)
    assert (second.items_created, second.items_existing, second.judgments_created, second.annotators_created) == (
        0,
        30,
        0,
        0,
    )
    assert (third.items_created, third.items_existing, third.judgments_created) == (5, 30, 25)
    assert unchanged
    assert (Item.objects.count(), Judgment.objects.count()) == (35, 175)


def test_items_written_in_bulk_are_whole(monkeypatch):
    """Items, versions and judgments of several batches: every item points at its version 1."""
    monkeypatch.setattr("annotation.importing.engine.BATCH", 7)

    summary = items_import(path_or_bytes=_rows(20), project_slug="bulk", format="id-csqa", language="id")

    assert (summary.items_created, summary.judgments_created) == (20, 100)
    items = list(Item.objects.filter(project__slug="bulk").select_related("current_version", "author", "concept"))
    assert [(i.current_version.item_id, i.current_version.number) for i in items] == [(i.pk, 1) for i in items]
    assert {(i.source, i.judging_round, i.concept.name) for i in items} == {("import", 1, "ketupat")}
    assert items[0].current_version.payload == {
        "question": "Kapan ketupat biasanya disajikan? (q0)",
        "choices": ["Lebaran", "Natal", "Imlek", "Nyepi", "Waisak"],
        "answer": "A",
    }
    assert items[0].current_version.note == "import (row 1)"
    judgment = Judgment.objects.filter(item=items[0]).order_by("user__username").select_related("user").first()
    assert (judgment.user.username, judgment.kind, judgment.round, judgment.value, judgment.item_author_id) == (
        "bulk-w2",
        "answer",
        1,
        {"answer": "A"},
        items[0].author_id,
    )
    assert judgment.flags == {"uncertain": False, "question_ambiguous": False, "option_ambiguous": [False] * 5}


def test_postgresql_writes_with_copy(monkeypatch):
    assert connection.vendor == "postgresql"  # COPY is PostgreSQL's: fail on anything else
    used: list[str] = []
    monkeypatch.setattr(
        engine.BackgroundCopies, "submit", lambda self, copies: used.extend(sql.split()[1] for sql, _ in copies)
    )
    monkeypatch.setattr(engine, "reserve_ids", lambda model, n: list(range(10**6, 10**6 + n)))

    items_import(path_or_bytes=_rows(3), project_slug="copy", format="id-csqa", language="id")

    assert used == ['"annotation_item"', '"annotation_itemversion"', '"annotation_judgment"', '"qc_golddecision"']


def test_imported_versions_wait_for_the_search_indexes_until_the_commit_queues_their_task(
    django_capture_on_commit_callbacks,
):
    assert connection.vendor == "postgresql"  # the search indexes are PostgreSQL's
    ItemVersion.objects.update(search_ready=True)  # what earlier tests' imports left waiting
    with django_capture_on_commit_callbacks() as queued:
        items_import(path_or_bytes=_rows(3), project_slug="search", format="id-csqa", language="id")

    imported = ItemVersion.objects.filter(item__project__slug="search")
    assert list(imported.values_list("search_ready", flat=True)) == [False, False, False]
    assert ItemVersion.objects.filter(search_ready=False).count() == 3
    # The task queued at the commit (run here, in the process, as without a broker) indexes them.
    assert sorted(callback.__qualname__ for callback in queued) == ["_send", "aggregation_request.<locals>.<lambda>"]
    for callback in queued:
        if callback.__qualname__ == "_send":
            callback()
    assert list(imported.values_list("search_ready", flat=True)) == [True, True, True]
    assert ItemVersion.objects.filter(search_ready=False).count() == 0


def test_import_items_command_refuses_an_unknown_format(tmp_path):
    path = tmp_path / "x.json"
    path.write_bytes(messy_bytes())

    with pytest.raises(CommandError) as refused:
        call_command("import_items", str(path), "--project", "x", "--format", "csv")

    assert (
        str(refused.value) == "Unknown format “csv”; known formats: "
        "arabculture, id-csqa, indonli, indopref, kalahi, mnli, preference-prompts, sentiment-jsonl."
    )


def test_import_items_and_import_csqa_print_the_same_summary(tmp_path):
    path = tmp_path / "messy.json"
    path.write_bytes(messy_bytes())
    generic, alias = StringIO(), StringIO()

    call_command("import_items", str(path), "--project", "one", "--format", "id-csqa", "--json", stdout=generic)
    call_command("import_csqa", str(path), "--project", "two", "--language", "id", "--json", stdout=alias)

    one, two = json.loads(generic.getvalue()), json.loads(alias.getvalue())
    assert (one.pop("project"), two.pop("project")) == ("one", "two")
    assert one == two
    assert (one["format"], one["items_created"], one["judgments_created"]) == ("id-csqa", 7, 32)


@pytest.mark.postgres
def test_a_copy_failing_in_the_background_comes_out_as_djangos_error_and_writes_nothing(monkeypatch):
    first = items_import(path_or_bytes=_rows(2), project_slug="taken", format="id-csqa", language="id")
    taken = min(Item.objects.values_list("pk", flat=True))
    real_reserve = engine.reserve_ids
    # The second file's items are given an id the first file's item holds: its COPY breaks the primary key.
    monkeypatch.setattr(
        engine,
        "reserve_ids",
        lambda model, n: [taken, *real_reserve(model, n)[1:]] if model is Item else real_reserve(model, n),
    )
    before = db_state()

    with pytest.raises(IntegrityError) as refused:
        items_import(path_or_bytes=_rows(3), project_slug="other", format="id-csqa", language="id")

    assert "annotation_item_pkey" in str(refused.value)
    assert first.items_created == 2
    assert db_state() == before  # and the connection still answers


@pytest.mark.postgres
def test_the_id_pool_reserves_doubling_runs_and_waits_for_the_connection_before_each():
    queries: list[str] = []
    pool = engine.IdPool(lambda: queries.append("waited"))

    taken = [list(pool.take(Item, 2)) for _ in range(6)]

    # Runs of 2, 4 (two batches), then 8 (four batches, the most): three refills for six batches,
    # each after waiting for the COPYs in flight.
    assert queries == ["waited"] * 3
    flat = [i for ids in taken for i in ids]
    assert [len(ids) for ids in taken] == [2] * 6
    assert len(set(flat)) == 12
    assert flat == sorted(flat)
    assert list(pool.free[Item]) == list(range(flat[-1] + 1, flat[-1] + 3))  # two left over, never used


@pytest.mark.postgres
def test_a_large_import_formats_the_next_batch_while_the_previous_one_is_copied(monkeypatch):
    events: list[str] = []
    submitting = False
    real_submit = engine.BackgroundCopies.submit
    real_wait = engine.BackgroundCopies.wait

    def submit(self, copies):
        nonlocal submitting
        events.append("copy")
        submitting = True  # submit waits for the previous batch's COPYs itself: one statement at a time
        real_submit(self, copies)
        submitting = False

    def wait(self):
        if self._pending is not None and not submitting:
            events.append("wait")  # the engine itself waits for the previous batch to use the connection
        real_wait(self)

    monkeypatch.setattr(engine.BackgroundCopies, "submit", submit)
    monkeypatch.setattr(engine.BackgroundCopies, "wait", wait)
    monkeypatch.setattr(engine, "BATCH", 2)

    summary = items_import(path_or_bytes=_rows(12), project_slug="pool", format="id-csqa", language="id")

    # Six batches of two rows, one concept (made by the first batch): the engine waits for the previous
    # batch's COPYs only to reserve more ids, before batches 2 and 4 (runs of 2, 4 and 8 batches' ids),
    # and after the last, before the references are checked.
    assert events == ["copy", "wait", "copy", "copy", "wait", "copy", "copy", "copy", "wait"]
    assert summary.items_created == 12
    assert Item.objects.filter(project__slug="pool").count() == 12
    assert Judgment.objects.filter(item__project__slug="pool").count() == 12 * 5
