"""The published id-csqa release (Putri et al. 2024, CC BY-NC 4.0), read from ../shared/data.

Generic checks run on every v2_human_gen/<language>/filtered_test.json present (another language of the
same release has the same schema); the exact figures are for Indonesian (ind).
"""

import json
import random

import pytest

from annotation.models import Item, Judgment, Project
from qc.exports import gold_export
from qc.models import GoldDecision
from qc.reports import conflicts_for_project
from tests.annotation.importing.imports import csqa_import
from tests.annotation.task_types.csqa import rawcsqa
from tests.qc.helpers import human_gen_files, ind_file

pytestmark = pytest.mark.django_db
FILES = human_gen_files()


def _slug(path: str) -> str:
    return "csqa-" + path.split("/")[-2].lower()


def _project(slug: str) -> Project:
    return Project.objects.get(slug=slug)


def _judgments(project_slug: str) -> dict:
    """external id -> {code: (answer, flags, reason)}."""
    out: dict = {}
    for ext, code, value, flags, comment in Judgment.objects.filter(project__slug=project_slug).values_list(
        "item__external_id", "user__memberships__code", "value", "flags", "comment"
    ):
        out.setdefault(ext, {})[code] = (value["answer"], flags, comment)
    return out


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.split("/")[-2])
def test_import_reproduces_the_release(path):
    records = rawcsqa.load(path)
    all_codes = rawcsqa.codes(records)

    summary = csqa_import(path_or_bytes=path, project_slug=_slug(path), language=path.split("/")[-2])

    assert summary.rows == len(records)
    assert summary.items_created == len(records) - len(summary.rows_skipped)
    readable = [r for i, r in enumerate(records, start=1) if i not in summary.rows_skipped]
    answers = sum(1 for r in readable for a in r["answers"].values() if str(a).strip().upper() in rawcsqa.LETTERS)
    assert summary.judgments_created == answers
    computed = dict(
        GoldDecision.objects.filter(item__project__slug=_slug(path)).values_list(
            "item__external_id", "details__majority"
        )
    )
    assert computed == {r["id"]: r["answer_majority"] for r in readable}
    assert computed == {r["id"]: rawcsqa.majority_first_seen(r, all_codes) for r in readable}
    assert conflicts_for_project(project=_project(_slug(path)))["conflicts"] == rawcsqa.conflict_matrix(readable)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.split("/")[-2])
def test_export_then_import_is_lossless(path, tmp_path):
    csqa_import(path_or_bytes=path, project_slug=_slug(path), language="id")
    result = gold_export(project=_project(_slug(path)), fmt="jsonl", out_dir=tmp_path)

    again = csqa_import(path_or_bytes=tmp_path / "test.jsonl", project_slug="roundtrip", language="id")

    assert (again.items_created, again.rows_skipped) == (result.items, [])
    original = dict(
        Item.objects.filter(project__slug=_slug(path)).values_list("external_id", "current_version__payload")
    )
    copied = dict(Item.objects.filter(project__slug="roundtrip").values_list("external_id", "current_version__payload"))
    assert copied == original
    assert _judgments("roundtrip") == _judgments(_slug(path))
    authors = dict(
        Item.objects.filter(project__slug=_slug(path)).values_list("external_id", "author__memberships__code")
    )
    assert (
        dict(Item.objects.filter(project__slug="roundtrip").values_list("external_id", "author__memberships__code"))
        == authors
    )
    concepts = ("external_id", "concept__category__name", "concept__name")
    assert set(Item.objects.filter(project__slug="roundtrip").values_list(*concepts)) == set(
        Item.objects.filter(project__slug=_slug(path)).values_list(*concepts)
    )


REGIONS = {  # the paper's annotators, W1..W6
    "W1": "West Java",
    "W2": "Central Java",
    "W3": "East Java",
    "W4": "Greater Jakarta 1",
    "W5": "Greater Jakarta 2",
    "W6": "Bali",
}


def test_ind_has_the_published_counts_and_figure_6():
    path = ind_file()

    summary = csqa_import(path_or_bytes=path, project_slug="ind", language="id", annotator_regions=REGIONS)

    assert (summary.items_created, summary.judgments_created, summary.rows_skipped) == (1498, 7490, [])
    # The two questions whose options repeat (rows 466 and 1029) are imported and reported.
    assert summary.issue_rows == {"payload_problem": [466, 1029]}
    assert Item.objects.filter(project__slug="ind", status="gold").count() == 1498
    by_region = conflicts_for_project(project=_project("ind"))
    conflicts = by_region["conflicts"]
    # One annotator per region: the region matrix is the annotator matrix with regions as labels.
    assert by_region["conflicts_by_region"] == {"regions": list(REGIONS.values()), "counts": conflicts["counts"]}
    figure = rawcsqa.readme_figure()
    assert conflicts["annotators"] == figure["annotators"] == ["W1", "W2", "W3", "W4", "W5", "W6"]
    differences = {
        (answerer, creator): conflicts["counts"][r][c] - figure["counts"][r][c]
        for r, answerer in enumerate(figure["annotators"])
        for c, creator in enumerate(figure["annotators"])
        if conflicts["counts"][r][c] != figure["counts"][r][c]
    }
    # The released (filtered) file is one lower than the paper's figure in four cells of creator W4.
    assert differences == {("W2", "W4"): -1, ("W3", "W4"): -1, ("W5", "W4"): -1, ("W6", "W4"): -1}


def test_ind_export_gives_back_the_file_row_for_row(tmp_path, monkeypatch):
    path = ind_file()
    csqa_import(path_or_bytes=path, project_slug="ind", language="id")

    gold_export(project=_project("ind"), fmt="jsonl", out_dir=tmp_path)

    exported = [json.loads(line) for line in (tmp_path / "test.jsonl").read_text(encoding="utf-8").splitlines()]
    # Every export row ends with the item's language; the rest is the released file's row.
    assert {row.pop("language") for row in exported} == {"id"}
    assert exported == rawcsqa.load(path)
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    import datasets

    loaded = datasets.load_dataset("json", data_dir=str(tmp_path), cache_dir=str(tmp_path.parent / "hf-cache"))
    assert (list(loaded), loaded["test"].num_rows) == (["test"], 1498)
    assert loaded["test"][0]["answers"] == exported[0]["answers"]


def test_reimporting_the_release_creates_nothing():
    path = ind_file()
    csqa_import(path_or_bytes=path, project_slug="ind", language="id")
    counts = (Item.objects.count(), Judgment.objects.count(), GoldDecision.objects.count())

    again = csqa_import(path_or_bytes=path, project_slug="ind", language="id")

    assert (again.items_created, again.items_existing, again.judgments_created, again.annotators_created) == (
        0,
        1498,
        0,
        0,
    )
    assert (Item.objects.count(), Judgment.objects.count(), GoldDecision.objects.count()) == counts


def test_a_reshuffled_release_gives_the_same_properties(tmp_path):
    """Unseen data: rows shuffled and annotators renamed, so nothing can depend on the ind file's layout."""
    rename = {"W1": "W4", "W2": "W6", "W3": "W1", "W4": "W5", "W5": "W2", "W6": "W3"}
    records = rawcsqa.load(ind_file())
    random.Random(5).shuffle(records)
    per_annotator = ("answers", "answers_uncertainty", "question_ambiguity", "option_ambiguity", "reason")
    for r in records:
        for key in per_annotator:
            r[key] = {rename[code]: value for code, value in r[key].items()}
    path = tmp_path / "reshuffled.json"
    path.write_text(json.dumps(records, ensure_ascii=False), encoding="utf-8")

    summary = csqa_import(path_or_bytes=path, project_slug="reshuffled", language="id")

    assert (summary.items_created, summary.judgments_created) == (1498, 7490)
    all_codes = rawcsqa.codes(records)
    computed = dict(
        GoldDecision.objects.filter(item__project__slug="reshuffled").values_list(
            "item__external_id", "details__majority"
        )
    )
    assert computed == {r["id"]: rawcsqa.majority_first_seen(r, all_codes) for r in records}
    assert conflicts_for_project(project=_project("reshuffled"))["conflicts"] == rawcsqa.conflict_matrix(records)
