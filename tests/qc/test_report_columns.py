"""The columnar report (qc.reports.columns + the task type's report_sections_from_columns, PostgreSQL) gives
exactly the row path's report: the same dict, the same floats, the same order."""

import random

import numpy as np
import pytest
from django.db import connection, transaction

from annotation.models import Item, Judgment
from annotation.task_types import get_task_type
from qc.gold import gold_recompute_project
from qc.reports import project_report, report_sections, task_type_report
from qc.reports.columns import _positions, columns_apply, report_columns
from qc.reports.rows import report_rows
from qc.reports.snapshots import report_snapshot_build
from tests.qc.helpers import add_judgment, make_item, make_project, make_user

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]

REGIONS = ["West Java", "West Java", "Bali", "", "Jakarta", "Jakarta", "Bali"]
CATEGORIES = ["culinary", "place", "culture", "history"]


def varied_project():
    """70 items in four categories (and one without a concept): 0-6 answers each, ties, unknown ("Z"),
    empty, null and missing answers, flags of every shape, excluded items, an author and a judge who are
    not annotators, an item without an author, one without a version, one not approved, another kind."""
    project, people = make_project(slug="rcol", annotators=7, threshold=2, regions=REGIONS)
    outsider, writer = make_user("rcol-outsider"), make_user("rcol-writer")
    rng = random.Random(14)
    items = []
    for k in range(70):
        author = writer if k % 11 == 3 else people[k % 6]  # W7 neither writes nor answers
        answer = rng.choice(["A", "B", "C", "D", "E", "A", "", "Z"])
        status = Item.Status.SUBMITTED if k == 8 else Item.Status.APPROVED
        item = make_item(project, author, category=CATEGORIES[k % 4], concept=f"k{k}", answer=answer, status=status)
        judges = [p for p in people[:6] + [outsider] if p != author]
        rng.shuffle(judges)
        for judge in judges[: rng.choice([0, 2, 3, 4, 5, 5, 6])]:
            add_judgment(
                item,
                judge,
                rng.choice(["A", "B", "C", "A", "B", "Z", ""]),
                uncertain=rng.random() < 0.3,
                question_ambiguous=rng.random() < 0.25,
                options=[rng.random() < 0.15 for _ in range(5)],
            )
        items.append(item)
    # A 2-2-1 tie in annotator order (W2 B, W3 C, W4 C, W5 B, W6 A: B wins), on an item of W1.
    tie = make_item(project, people[0], category="place", concept="tie", answer="C")
    for judge, answer in zip(people[1:6], "BCCBA", strict=True):
        add_judgment(tie, judge, answer)
    # Values and flags the page never writes but an import or an old row may hold.
    odd = items[5]
    Judgment.objects.filter(item=odd).delete()
    Judgment.objects.create(project=project, item=odd, user=people[2], kind="answer", value={}, flags={})
    Judgment.objects.create(
        project=project, item=odd, user=people[3], kind="answer", value={"answer": None}, flags={"uncertain": 1}
    )
    Judgment.objects.create(
        project=project,
        item=odd,
        user=people[4],
        kind="answer",
        value={"answer": "A", "note": "x"},
        flags={"uncertain": True, "option_ambiguous": None, "question_ambiguous": "yes"},
    )
    Judgment.objects.create(project=project, item=odd, user=people[1], kind="validate", value={"answer": "E"})
    gold_recompute_project(project=project)
    Item.objects.filter(pk=items[9].pk).update(current_version=None)
    Item.objects.filter(pk=items[10].pk).update(author=None)
    Item.objects.filter(pk=items[12].pk).update(concept=None)
    return project, outsider, writer


def row_path(project):
    return get_task_type(project.task_type).report_sections(report_rows(project=project))


def test_the_columnar_report_is_the_row_report():
    assert connection.vendor == "postgresql"
    project, outsider, writer = varied_project()
    assert columns_apply(project)

    columns = get_task_type(project.task_type).report_sections_from_columns(report_columns(project=project))
    rows = row_path(project)

    assert columns == rows
    # The project covers what it claims to: ties, excluded items, people outside the list, kappa pairs.
    assert rows["excluded"] > 0 and rows["items"] == 70  # 71 written, one not approved
    assert [a["code"] for a in rows["annotators"]] == [
        *(f"W{n}" for n in range(1, 8)),
        *(f"user{pk}" for pk in sorted([outsider.pk, writer.pk])),
    ]
    assert {c["category"] for c in rows["categories"]} == {"", *CATEGORIES}
    assert len(rows["kappa"]) > 10
    assert any(k["kappa"] is not None for k in rows["kappa"])
    assert any(a["accuracy_against_authors"] is None for a in rows["annotators"])


def test_the_engine_and_the_snapshot_read_columns_not_rows(monkeypatch):
    project, _, _ = varied_project()
    expected = row_path(project)

    def no_rows(**kwargs):
        raise AssertionError("the row path was read")

    monkeypatch.setattr("qc.reports.report_rows", no_rows)

    assert report_sections(project=project) == expected
    assert task_type_report(project=project) == {"project": "rcol", **expected}
    assert project_report(project=project) == {"project": "rcol", "task_type": "csqa", "csqa": expected}
    assert report_snapshot_build(project_id=project.pk).data == expected


def test_the_read_leaves_the_callers_transaction_as_it_was():
    project, _, _ = varied_project()

    with transaction.atomic(), connection.cursor() as cursor:
        report_sections(project=project)
        cursor.execute("SHOW enable_sort")
        assert cursor.fetchone() == ("on",)
        cursor.execute("SHOW parallel_setup_cost")
        assert cursor.fetchone() == ("1000",)


def test_an_empty_project_reads_columns_too():
    project, _ = make_project(slug="rcol-empty", annotators=6)

    assert report_sections(project=project) == row_path(project)


def test_without_postgresql_the_report_reads_rows(monkeypatch):
    project, _, _ = varied_project()
    expected = row_path(project)
    monkeypatch.setattr(connection, "vendor", "sqlite")

    assert not columns_apply(project)
    assert report_sections(project=project) == expected


@pytest.mark.parametrize(
    ("item_id", "ids", "expected"),
    [
        ([10, 11, 13], [9, 10, 13, 12, 14, 11], [3, 0, 2, 3, 3, 1]),  # near-consecutive ids: by a table
        ([10, 1000, 5000], [1000, 5, 5000, 999, 6000, 10], [1, 3, 2, 3, 3, 0]),  # far apart: by binary search
        ([], [1, 2], [0, 0]),
    ],
)
def test_judgments_find_their_items_position_or_none(item_id, ids, expected):
    found = _positions(np.array(item_id, dtype=np.int64), np.array(ids, dtype=np.int64))

    assert found.tolist() == expected
