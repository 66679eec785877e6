"""Reports: exact figures on a small project, a fixed number of queries, and the command on the release."""

import json
from io import StringIO

import krippendorff
import numpy as np
import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from sklearn.metrics import cohen_kappa_score

from annotation.task_types.csqa.report import build_csqa_report, report_inputs
from qc.gold import gold_recompute_project
from qc.reports import alpha_for_project, conflicts_for_project
from qc.reports import task_type_report as csqa_report
from qc.reports.rows import report_rows
from tests.annotation.importing.imports import csqa_import
from tests.annotation.task_types.csqa import rawcsqa
from tests.qc.helpers import add_judgment, ind_file, make_item, make_project

pytestmark = pytest.mark.django_db

REGIONS = ["West Java", "West Java", "Bali", "Bali", "Jakarta", "Jakarta"]
OPTION_B = [False, True, False, False, False]


def csqa_report_inputs(*, project):
    """The csqa report's inputs as the engine builds them: the core's rows (three queries), then csqa's."""
    return report_inputs(report_rows(project=project), project=project.slug)


@pytest.fixture
def small():
    project, w = make_project(slug="rep", annotators=6, regions=REGIONS)
    item1 = make_item(project, w[0], answer="A", question="Q1")
    item2 = make_item(project, w[1], answer="C", question="Q2")
    item3 = make_item(project, w[2], answer="B", category="place", question="Q3")
    add_judgment(item1, w[1], "A")
    add_judgment(item1, w[2], "A")
    add_judgment(item1, w[3], "B", uncertain=True)
    add_judgment(item1, w[4], "A", question_ambiguous=True)
    add_judgment(item1, w[5], "C", options=OPTION_B)
    for user, answer in zip([w[0], w[2], w[3], w[4], w[5]], "CCCDC", strict=True):
        add_judgment(item2, user, answer)
    for user, answer, flag in zip([w[0], w[1], w[3], w[4], w[5]], "AABAB", [1, 1, 1, 1, 0], strict=True):
        add_judgment(item3, user, answer, question_ambiguous=bool(flag))
    gold_recompute_project(project=project)
    return project


def _annotator(code, region, authored, answers, uncertain, qg, og, qr, orc, accuracy):
    return {
        "code": code,
        "region": region,
        "authored": authored,
        "answers": answers,
        "uncertain": uncertain,
        "question_flags_given": qg,
        "option_flags_given": og,
        "question_flags_received": qr,
        "option_flags_received": orc,
        "accuracy_against_authors": accuracy,
    }


def test_report_figures(small):
    report = csqa_report(project=small)

    nan = np.nan
    coders = [  # W1..W6 x items 1-3, answers as 0-4 (A-E), for an independent alpha
        [nan, 2, 0],
        [0, nan, 0],
        [0, 2, nan],
        [1, 2, 1],
        [0, 3, 0],
        [2, 2, 1],
    ]
    assert {k: report[k] for k in ("project", "items", "judgments", "excluded", "majority_equals_author")} == {
        "project": "rep",
        "items": 3,
        "judgments": 15,
        "excluded": 1,
        "majority_equals_author": 2,
    }
    assert report["majority_equals_author_share"] == 2 / 3
    assert report["alpha_nominal"] == pytest.approx(
        krippendorff.alpha(reliability_data=coders, level_of_measurement="nominal"), abs=1e-12
    )
    # With the author as a seventh coder: W1 wrote item 1 (A), W2 item 2 (C), W3 item 3 (B).
    authors_row = [[0, nan, nan], [nan, 2, nan], [nan, nan, 1]]
    assert report["alpha_nominal_with_author"] == pytest.approx(
        krippendorff.alpha(reliability_data=coders + authors_row, level_of_measurement="nominal"), abs=1e-12
    )
    assert report["conflicts"] == {
        "annotators": ["W1", "W2", "W3", "W4", "W5", "W6"],
        "counts": [
            [0, 0, 1, 0, 0, 0],
            [0, 0, 1, 0, 0, 0],
            [0, 0, 0, 0, 0, 0],
            [1, 0, 0, 0, 0, 0],
            [0, 1, 1, 0, 0, 0],
            [1, 0, 0, 0, 0, 0],
        ],
    }
    assert report["conflicts_by_region"] == {
        "regions": ["West Java", "Bali", "Jakarta"],
        "counts": [[0, 2, 0], [1, 0, 0], [2, 1, 0]],
    }
    assert report["annotators"] == [
        _annotator("W1", "West Java", 1, 2, 0, 1, 0, 1, 1, 0.5),
        _annotator("W2", "West Java", 1, 2, 0, 1, 0, 0, 0, 0.5),
        _annotator("W3", "Bali", 1, 2, 0, 0, 0, 4, 0, 1.0),
        _annotator("W4", "Bali", 0, 3, 1, 1, 0, 0, 0, 2 / 3),
        _annotator("W5", "Jakarta", 0, 3, 0, 2, 0, 0, 0, 1 / 3),
        _annotator("W6", "Jakarta", 0, 3, 0, 0, 1, 0, 0, 2 / 3),
    ]
    culinary, place = report["categories"]
    assert {k: culinary[k] for k in ("category", "items", "excluded", "judgments", "majority_equals_author")} == {
        "category": "culinary",
        "items": 2,
        "excluded": 0,
        "judgments": 10,
        "majority_equals_author": 2,
    }
    assert culinary["mean_agreement"] == pytest.approx(0.7, abs=1e-12)
    assert (place["items"], place["excluded"], place["majority_equals_author"], place["mean_agreement"]) == (
        1,
        1,
        0,
        0.6,
    )
    # W1-W2, W1-W3 and W2-W3 share a single item: below min_shared (2), no kappa.
    assert [(k["a"], k["b"], k["items"]) for k in report["kappa"]] == [
        ("W1", "W4", 2),
        ("W1", "W5", 2),
        ("W1", "W6", 2),
        ("W2", "W4", 2),
        ("W2", "W5", 2),
        ("W2", "W6", 2),
        ("W3", "W4", 2),
        ("W3", "W5", 2),
        ("W3", "W6", 2),
        ("W4", "W5", 3),
        ("W4", "W6", 3),
        ("W5", "W6", 3),
    ]
    w4_w6 = next(k for k in report["kappa"] if (k["a"], k["b"]) == ("W4", "W6"))
    assert w4_w6["kappa"] == cohen_kappa_score(["B", "C", "B"], ["C", "C", "B"])


def test_fast_paths_agree_with_the_report(small, django_assert_num_queries):
    report = csqa_report(project=small)

    with django_assert_num_queries(2):
        alpha = alpha_for_project(project=small)
    with django_assert_num_queries(2):
        conflicts = conflicts_for_project(project=small)

    assert alpha["alpha_nominal"] == pytest.approx(report["alpha_nominal"], abs=1e-12)
    assert alpha["alpha_nominal_with_author"] == pytest.approx(report["alpha_nominal_with_author"], abs=1e-12)
    assert conflicts == {"conflicts": report["conflicts"], "conflicts_by_region": report["conflicts_by_region"]}


def test_report_inputs_take_a_fixed_number_of_queries_whatever_the_size(small, django_assert_num_queries):
    # Three reads (annotators, items, judgments); around the judgments' read, the settings that plan its
    # cursor for its whole result: the caller's read, the block's set, the caller's put back: 3 + 3.
    with django_assert_num_queries(6):
        inputs = csqa_report_inputs(project=small)
    assert (len(inputs.items), len(inputs.answers), len(inputs.annotators)) == (3, 15, 6)
    people = [a.user_id for a in inputs.annotators]
    users = {u.pk: u for u in get_user_model().objects.filter(pk__in=people)}
    for n in range(20):
        item = make_item(small, users[people[n % 6]], question=f"more {n}")
        for uid in people:
            if uid != item.author_id:
                add_judgment(item, users[uid], "A")

    with django_assert_num_queries(6):
        inputs = csqa_report_inputs(project=small)
    assert (len(inputs.items), len(inputs.answers)) == (23, 115)
    assert build_csqa_report(inputs)["items"] == 23


def test_csqa_report_command_on_the_release():
    records = rawcsqa.load(ind_file())
    csqa_import(path_or_bytes=ind_file(), project_slug="ind", language="id")
    out = StringIO()

    call_command("csqa_report", "ind", "--json", stdout=out)

    report = json.loads(out.getvalue())
    assert {"items", "judgments", "excluded", "majority_equals_author", "alpha_nominal", "conflicts"} <= set(report)
    assert (report["items"], report["judgments"], report["excluded"], report["majority_equals_author"]) == (
        1498,
        7490,
        0,
        sum(1 for r in records if r["answer_majority"] == r["answer_creator"]),
    )
    assert report["majority_equals_author"] == 1485
    codes = rawcsqa.codes(records)
    index = {c: i for i, c in enumerate(codes)}
    coders = np.full((6, len(records)), np.nan)
    for u, r in enumerate(records):
        for code, answer in r["answers"].items():
            coders[index[code], u] = "ABCDE".index(answer)
    expected_alpha = krippendorff.alpha(reliability_data=coders, level_of_measurement="nominal")
    assert report["alpha_nominal"] == pytest.approx(expected_alpha, abs=1e-12)
    assert round(report["alpha_nominal"], 4) == 0.9295
    assert report["conflicts"] == rawcsqa.conflict_matrix(records)
    assert report["conflicts"]["counts"][5] == [48, 29, 30, 22, 15, 0]


def test_report_command_prints_one_object_with_the_task_types_sections(small):
    out = StringIO()

    call_command("report", "rep", "--json", stdout=out)

    report = json.loads(out.getvalue())
    expected = csqa_report(project=small)
    del expected["project"]
    assert report == {"project": "rep", "task_type": "csqa", "csqa": json.loads(json.dumps(expected))}


def test_the_judgments_cursor_is_planned_for_every_row_and_the_caller_keeps_its_settings(small):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    def settings():
        with connection.cursor() as cursor:
            cursor.execute("SELECT current_setting('cursor_tuple_fraction'), current_setting('jit')")
            return cursor.fetchone()

    before = settings()  # the test's transaction is the caller's
    with CaptureQueriesContext(connection) as queries:
        rows = report_rows(project=small)

    statements = [q["sql"] for q in queries.captured_queries]
    judgments = next(n for n, sql in enumerate(statements) if '"annotation_judgment"' in sql)
    assert statements[judgments - 1] == (
        "SELECT set_config('cursor_tuple_fraction', '1', true), set_config('jit', 'off', true)"
    )
    assert statements[judgments + 1] == (
        f"SELECT set_config('cursor_tuple_fraction', '{before[0]}', true), set_config('jit', '{before[1]}', true)"
    )
    assert before[0] == "0.1"
    assert settings() == before
    assert len(rows.judgments) == 15
    order = [a.code for a in rows.annotators]
    assert [(j.item_id, j.user_code) for j in rows.judgments] == sorted(
        ((j.item_id, j.user_code) for j in rows.judgments), key=lambda pair: (pair[0], order.index(pair[1]))
    )


def test_report_rows_decode_each_unit_once_and_take_worked_seconds_from_the_assignments(small):
    from datetime import timedelta

    from django.utils import timezone

    from annotation.models import Assignment, Concept, Item, Judgment

    Concept.objects.filter(project=small, name="culinary-concept").update(data={"text": "premis", "n": 1})
    items = list(Item.objects.filter(project=small).order_by("pk"))
    judgment = Judgment.objects.filter(item=items[0]).order_by("pk").first()
    start = timezone.now()
    assignment = Assignment.objects.create(
        project=small,
        user_id=judgment.user_id,
        kind="answer",
        target_item=items[0],
        position=0,
        status=Assignment.Status.DONE,
        started_at=start,
        completed_at=start + timedelta(seconds=42.5),
    )
    Judgment.objects.filter(pk=judgment.pk).update(assignment=assignment)

    rows = report_rows(project=small)

    by_item = {r.item_id: r for r in rows.items}
    assert by_item[items[0].pk].unit_data == {"text": "premis", "n": 1}
    assert by_item[items[0].pk].unit_data is by_item[items[1].pk].unit_data  # same concept: decoded once
    assert by_item[items[2].pk].unit_data == {}
    assert {r.item_id: r.seconds for r in rows.items} == {i.pk: None for i in items}
    seconds = {j.judgment_id: j.seconds for j in rows.judgments}
    assert seconds.pop(judgment.pk) == 42.5
    assert set(seconds.values()) == {None}
    values = [j.value for j in rows.judgments if j.value == {"answer": "A"}]
    assert len({id(v) for v in values}) == 1  # equal texts decode to one shared, read-only dict
