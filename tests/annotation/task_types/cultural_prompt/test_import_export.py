"""The KALAHI file: import (command), report counts, export (CSV, JSON Lines, Parquet) and import back."""

from __future__ import annotations

import csv
import io
import json
from collections import Counter
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from django.core.management import call_command

from annotation.models import Item, Judgment, Project
from qc.exports import gold_export
from qc.reports import project_report

KALAHI = Path(__file__).resolve().parents[4] / ".." / "shared" / "data" / "kalahi" / "filipino.csv"

pytestmark = pytest.mark.django_db


def _file_rows() -> list[dict[str, str]]:
    with KALAHI.open(encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


def _import(path, slug: str) -> str:
    out = io.StringIO()
    call_command("import_items", str(path), "--project", slug, "--format", "kalahi", "--language", "fil", stdout=out)
    return out.getvalue()


def _items(slug: str) -> dict[str, dict]:
    return {
        i.external_id: i.current_version.payload
        for i in Item.objects.filter(project__slug=slug).select_related("current_version")
    }


def test_real_file_imports_as_150_variants_with_every_response_kept():
    rows = _file_rows()
    output = _import(KALAHI, "kalahi")
    project = Project.objects.get(slug="kalahi")
    assert project.task_type == "cultural_prompt"
    assert "150 rows, 150 items created" in output
    items = _items("kalahi")
    assert len(items) == 150
    for row in rows:
        payload = items[row["prompt_variation_id"]]
        assert payload["prompt"] == row["prompt"]
        assert payload["prompt_id"] == row["prompt_id"]
        assert payload["category"] == row["category"] and payload["topic"] == row["topic"]
        assert payload["relevant"] == row["relevant_answers"].split(";")
        assert payload["irrelevant"] == row["irrelevant_answers"].split(";")
        assert payload["relevant"][payload["best"]] == row["best_answer"]
        parts = [payload[p] for p in ("user", "context", "situation", "instruction") if payload[p]]
        assert "\n".join(parts) == row["prompt"]
        assert bool(payload["situation"]) == (not row["prompt_variation_id"].endswith("00"))

    report = project_report(project=project)["cultural_prompt"]
    assert report["prompts"] == 150
    assert report["base_prompts"] == len({r["prompt_id"] for r in rows}) == 86
    assert report["by_category"] == {"ethics": 109, "shared knowledge": 41}
    assert report["responses"]["relevant"] == sum(len(r["relevant_answers"].split(";")) for r in rows)
    assert report["responses"]["irrelevant"] == sum(len(r["irrelevant_answers"].split(";")) for r in rows)
    assert report["responses"]["relevant_per_prompt"] == {"3": 134, "4": 8, "5": 8}
    assert report["validation"] is None

    # the report command prints the same section
    out = io.StringIO()
    call_command("report", "kalahi", "--json", stdout=out)
    section = json.loads(out.getvalue())["cultural_prompt"]
    assert (section["prompts"], section["base_prompts"], section["by_category"]) == (
        150,
        86,
        {"ethics": 109, "shared knowledge": 41},
    )

    # importing again creates nothing
    assert "0 items created, 150 already there" in _import(KALAHI, "kalahi")


def test_export_then_import_is_lossless(tmp_path):
    _import(KALAHI, "kalahi")
    project = Project.objects.get(slug="kalahi")
    result = gold_export(project=project, fmt="csv", out_dir=tmp_path / "csv")
    assert result.counts == {"test": 150}
    exported = tmp_path / "csv" / "test.csv"
    with exported.open(encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    original = {r["prompt_variation_id"]: r for r in _file_rows()}
    for row in rows:
        source = original[row["prompt_variation_id"]]
        for column in source:
            # a cell a spreadsheet would run is neutralised with a leading quote
            assert row[column] in (source[column], "'" + source[column]), column
    card = (tmp_path / "csv" / "README.md").read_text("utf-8")
    assert "150 prompt variants of 86 base prompts: ethics 109, shared knowledge 41" in card

    _import(exported, "kalahi-again")
    assert _items("kalahi-again") == _items("kalahi")

    gold_export(project=project, fmt="jsonl", out_dir=tmp_path / "jsonl")
    lines = (tmp_path / "jsonl" / "test.jsonl").read_text("utf-8").splitlines()
    assert len(lines) == 150
    _import(tmp_path / "jsonl" / "test.jsonl", "kalahi-jsonl")
    assert _items("kalahi-jsonl") == _items("kalahi")

    gold_export(project=project, fmt="parquet", out_dir=tmp_path / "parquet")
    table = pq.read_table(tmp_path / "parquet" / "test.parquet")
    assert table.num_rows == 150
    assert Counter(table.column("category").to_pylist()) == {"ethics": 109, "shared knowledge": 41}


def test_validators_picks_survive_export_and_import(tmp_path):
    """An export with validations (as the validation engine records them) reads back with the same picks."""
    _import(KALAHI, "kalahi")
    out = tmp_path / "one.csv"
    row = _file_rows()[0]
    validations = [
        {
            "validator": "V1",
            "round": 1,
            "choice": "best",
            "order": ["irrelevant_2", "best", "irrelevant_1", "irrelevant_3"],
            "seed": 7,
        },
        {
            "validator": "V2",
            "round": 1,
            "choice": "irrelevant_3",
            "order": ["best", "irrelevant_3", "irrelevant_1", "irrelevant_2"],
            "seed": 8,
        },
        {
            "validator": "V3",
            "round": 1,
            "choice": "best",
            "order": ["best", "irrelevant_1", "irrelevant_2", "irrelevant_3"],
            "seed": 9,
        },
    ]
    with out.open("w", encoding="utf-8", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=[*row, "validations"])
        writer.writeheader()
        writer.writerow({**row, "validations": json.dumps(validations)})
    _import(out, "kalahi-picks")
    project = Project.objects.get(slug="kalahi-picks")
    picks = sorted(Judgment.objects.filter(project=project).values_list("user__memberships__code", "value"))
    assert [(code, value["choice"], value["position"], value["seed"]) for code, value in picks] == [
        ("V1", "best", 2, 7),
        ("V2", "irrelevant_3", 2, 8),
        ("V3", "best", 1, 9),
    ]
    item = Item.objects.get(project=project)
    assert item.status == "gold" and item.gold_decision.outcome == "gold"
    assert item.gold_decision.details["best_votes"] == 2

    gold_export(project=project, fmt="csv", out_dir=tmp_path / "back")
    with (tmp_path / "back" / "test.csv").open(encoding="utf-8", newline="") as f:
        exported = list(csv.DictReader(f))
    back = json.loads(exported[0]["validations"])
    assert [(v["validator"], v["choice"], v["order"], v["seed"], v["correct"]) for v in back] == [
        (v["validator"], v["choice"], v["order"], v["seed"], v["choice"] == "best") for v in validations
    ]
    _import(tmp_path / "back" / "test.csv", "kalahi-picks-2")
    again = sorted(
        Judgment.objects.filter(project__slug="kalahi-picks-2").values_list("user__memberships__code", "value")
    )
    assert again == picks
