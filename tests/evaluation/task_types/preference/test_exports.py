"""Pair exports: the IndoPref shape and chosen/rejected, JSON Lines (the fast encoder gives exactly what
json.dumps gives), CSV and Parquet, each with its data card."""

from __future__ import annotations

import csv
import io
import json

import pyarrow.parquet as pq
import pytest
from django.core.management import CommandError, call_command

from annotation.models import Project
from annotation.services.imports import items_import
from evaluation.task_types.preference.exports import export_pairs, pair_rows
from tests.annotation.task_types.preference.world import make_world, plan, rate_all
from tests.factories import UserFactory, make_csqa_project

pytestmark = pytest.mark.django_db


@pytest.fixture
def rated():
    world = make_world(raters_per_group=2)
    plan(world)
    rate_all(world)
    return world


@pytest.mark.parametrize("shape", ["indopref", "chosen_rejected"])
def test_every_format_writes_every_pair_with_a_data_card(rated, tmp_path, shape):
    expected = list(pair_rows(project=rated.project, shape=shape))

    jsonl = export_pairs(project=rated.project, shape=shape, fmt="jsonl", folder=tmp_path / "j")
    csv_out = export_pairs(project=rated.project, shape=shape, fmt="csv", folder=tmp_path / "c")
    parquet = export_pairs(project=rated.project, shape=shape, fmt="parquet", folder=tmp_path / "p")

    lines = (tmp_path / "j" / "pairs.jsonl").read_text(encoding="utf-8").splitlines()
    assert lines == [json.dumps(row, ensure_ascii=False) for row in expected]
    assert jsonl["rows"] == csv_out["rows"] == parquet["rows"] == len(expected) > 0
    with (tmp_path / "c" / "pairs.csv").open(encoding="utf-8", newline="") as handle:
        table = list(csv.DictReader(handle))
    assert [r["id"] for r in table] == [r["id"] for r in expected]
    read = pq.read_table(tmp_path / "p" / "pairs.parquet").to_pylist()
    assert [r["id"] for r in read] == [r["id"] for r in expected]
    if shape == "chosen_rejected":
        assert read[0]["chosen_scores"]["combined"] == expected[0]["chosen_scores"]["combined"]
    for folder in ("j", "c", "p"):
        card = (tmp_path / folder / "README.md").read_text(encoding="utf-8")
        assert f"{len(expected)} pairs" in card and "Annotation protocol" in card


def test_the_export_pairs_command_writes_the_file_and_its_card(rated, tmp_path):
    expected = list(pair_rows(project=rated.project, shape="indopref"))
    out = io.StringIO()

    call_command("export_pairs", "pref", "--out", str(tmp_path), "--format", "csv", stdout=out)

    assert json.loads(out.getvalue()) == {"file": str(tmp_path / "pairs.csv"), "rows": len(expected)}
    with (tmp_path / "pairs.csv").open(encoding="utf-8", newline="") as handle:
        assert list(csv.DictReader(handle)) == [{k: str(v) for k, v in row.items()} for row in expected]
    assert f"{len(expected)} pairs in `pairs.csv` (csv)" in (tmp_path / "README.md").read_text(encoding="utf-8")


def test_the_export_pairs_command_refuses_another_task_type(rated, tmp_path):
    make_csqa_project(slug="qa")
    with pytest.raises(CommandError, match="“qa” is a csqa project, which has no pairs to export."):
        call_command("export_pairs", "qa", "--out", str(tmp_path / "x"))
    assert not (tmp_path / "x").exists()
    with pytest.raises(CommandError, match="Unknown shape “pairs”; known shapes: indopref, chosen_rejected."):
        call_command("export_pairs", "pref", "--out", str(tmp_path / "y"), "--shape", "pairs")
    assert not (tmp_path / "y").exists()


def test_a_released_file_exported_again_gives_its_own_rows(tmp_path):
    from tests.annotation.task_types.preference.test_import_and_report import RELEASED, _jsonl

    items_import(
        path_or_bytes=_jsonl(RELEASED), project_slug="rel", format="indopref", language="id", creator=UserFactory()
    )
    project = Project.objects.get(slug="rel")

    export_pairs(project=project, shape="indopref", fmt="jsonl", folder=tmp_path)

    rows = [json.loads(line) for line in (tmp_path / "pairs.jsonl").read_text(encoding="utf-8").splitlines()]
    # ip-5 has no readable score; the others come back as released, the score in the release's own words
    normalised = {1: "Response 1", "Respon 1": "Response 1"}
    expected = [{**r, "actual_score": normalised.get(r["actual_score"], r["actual_score"])} for r in RELEASED[:4]]
    assert sorted(rows, key=lambda r: r["id"]) == expected


@pytest.mark.parametrize("shape", ["indopref", "chosen_rejected"])
def test_the_fast_lines_equal_the_rows_with_two_raters_per_group_and_best_pick_ties(tmp_path, shape):
    world = make_world(raters_per_group=2)
    world.project.settings = {**world.project.settings, "raters_per_group": 2, "tie_break": "best_picks"}
    world.project.save(update_fields=["settings"])
    plan(world)
    rate_all(world)
    expected = [json.dumps(row, ensure_ascii=False) for row in pair_rows(project=world.project, shape=shape)]

    result = export_pairs(project=world.project, shape=shape, fmt="jsonl", folder=tmp_path)

    assert (tmp_path / "pairs.jsonl").read_text(encoding="utf-8").splitlines() == expected
    assert result["rows"] == len(expected) > 0
    if shape == "chosen_rejected":
        rows = [json.loads(line) for line in expected]
        assert {r["rule"] for r in rows} == {"score", "best_picks"}
        assert {len(r["chosen_scores"]["by_group"]) for r in rows} == {2}
