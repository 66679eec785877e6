"""Gold export: schema, splits, CSV injection, UTF-8, parquet, Hugging Face loading, streaming shape."""

import csv
import json
from collections.abc import Iterator

import pyarrow.parquet as pq
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from annotation.models import Item, Project
from annotation.task_types.csqa.export import csqa_jsonl, csqa_row
from qc.exports import gold_export, gold_records, gold_rows
from qc.gold import gold_recompute_project
from tests.annotation.importing.imports import csqa_import
from tests.annotation.importing.messy import messy_bytes
from tests.qc.helpers import add_judgment, make_item, make_project

pytestmark = pytest.mark.django_db

SUNDANESE = "Naon hartina « ᮞᮥᮔ᮪ᮓ » jeung “عربي” dina basa Sunda?"


@pytest.fixture
def exported_project():
    project, w = make_project(slug="exp", annotators=6)
    items = [
        make_item(
            project, w[0], external_id="=cmd|' /C calc'!A0", category="@SUM(1)", concept="-2+3", question="\tTab?"
        ),
        make_item(project, w[1], external_id="plain-1", question="\rCR?", answer="B"),
        make_item(project, w[2], external_id="plain-2", question="+62 812", answer="C"),
        make_item(project, w[3], external_id="utf8", question=SUNDANESE, choices=["ᮃ", "ب", "ç", "ø", "—"]),
        make_item(project, w[4], external_id="llm", question="Dibuat model?", source=Item.Source.LLM_GEN),
        make_item(project, w[5], external_id="ambiguous", question="Ambigu?"),
    ]
    for item in items:
        for n, user in enumerate(u for u in w if u.pk != item.author_id):
            add_judgment(
                item,
                user,
                "A" if n < 3 else "B",
                uncertain=n == 0,
                question_ambiguous=item.external_id == "ambiguous" and n < 4,
                options=[False, n == 1, False, False, False],
                comment="=SUM(A1)" if n == 0 else "",
            )
    make_item(project, w[0], external_id="draft", status=Item.Status.SUBMITTED)
    gold_recompute_project(project=project)
    return project


def test_rows_follow_the_id_csqa_schema(exported_project, tmp_path):
    result = gold_export(project=exported_project, fmt="jsonl", out_dir=tmp_path)

    assert (result.files, result.counts) == ({"test": "test.jsonl"}, {"test": 5})
    assert sorted(p.name for p in tmp_path.iterdir()) == ["README.md", "test.jsonl"]
    rows = [json.loads(line) for line in (tmp_path / "test.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [r["id"] for r in rows] == ["=cmd|' /C calc'!A0", "plain-1", "plain-2", "utf8", "llm"]
    assert rows[1] == {
        "id": "plain-1",
        "category": "culinary",
        "question_concept": "culinary-concept",
        "question": "\rCR?",
        "choices": {"label": ["A", "B", "C", "D", "E"], "text": ["Ketupat", "Pizza", "Sushi", "Taco", "Burger"]},
        "answer_creator": "B",
        "answer_majority": "A",
        "answers": {"W1": "A", "W3": "A", "W4": "A", "W5": "B", "W6": "B"},
        "answers_uncertainty": {"W1": "uncertain", "W3": "certain", "W4": "certain", "W5": "certain", "W6": "certain"},
        "question_ambiguity": {"W1": "clear", "W3": "clear", "W4": "clear", "W5": "clear", "W6": "clear"},
        "option_ambiguity": {
            "W1": ["clear"] * 5,
            "W3": ["clear", "ambiguous", "clear", "clear", "clear"],
            "W4": ["clear"] * 5,
            "W5": ["clear"] * 5,
            "W6": ["clear"] * 5,
        },
        "reason": {"W1": "=SUM(A1)", "W3": "", "W4": "", "W5": "", "W6": ""},
        "language": "id",  # every export row names its item's language
    }


def test_excluded_and_unapproved_items_are_not_exported(exported_project, tmp_path):
    assert Item.objects.get(external_id="ambiguous").status == "excluded"

    gold_export(project=exported_project, fmt="jsonl", out_dir=tmp_path)

    ids = [json.loads(line)["id"] for line in (tmp_path / "test.jsonl").open(encoding="utf-8")]
    assert ids == ["=cmd|' /C calc'!A0", "plain-1", "plain-2", "utf8", "llm"]


def test_csv_cells_that_a_spreadsheet_would_run_are_neutralised(exported_project, tmp_path):
    gold_export(project=exported_project, fmt="csv", out_dir=tmp_path)

    with (tmp_path / "test.csv").open(encoding="utf-8", newline="") as f:
        rows = list(csv.reader(f))
    assert rows[0] == [
        "id",
        "category",
        "question_concept",
        "question",
        "choices",
        "answer_creator",
        "answer_majority",
        "answers",
        "answers_uncertainty",
        "question_ambiguity",
        "option_ambiguity",
        "reason",
        "language",
    ]
    assert rows[1][:4] == ["'=cmd|' /C calc'!A0", "'@SUM(1)", "'-2+3", "'\tTab?"]
    assert rows[2][:4] == ["plain-1", "culinary", "culinary-concept", "'\rCR?"]
    assert rows[3][3] == "'+62 812"
    assert rows[4][3] == SUNDANESE
    assert rows[4][4] == '{"label": ["A", "B", "C", "D", "E"], "text": ["ᮃ", "ب", "ç", "ø", "—"]}'
    assert json.loads(rows[2][11]) == {"W1": "=SUM(A1)", "W3": "", "W4": "", "W5": "", "W6": ""}


def test_utf8_is_written_without_escapes(exported_project, tmp_path):
    gold_export(project=exported_project, fmt="jsonl", out_dir=tmp_path)

    raw = (tmp_path / "test.jsonl").read_bytes()
    assert SUNDANESE.encode("utf-8") in raw
    assert b"\\u" not in raw
    assert '"text": ["ᮃ", "ب", "ç", "ø", "—"]'.encode() in raw


def test_parquet_holds_the_same_rows(exported_project, tmp_path):
    gold_export(project=exported_project, fmt="jsonl", out_dir=tmp_path / "jsonl")
    gold_export(project=exported_project, fmt="parquet", out_dir=tmp_path / "parquet")

    table = pq.read_table(tmp_path / "parquet" / "test.parquet")
    maps = ("answers", "answers_uncertainty", "question_ambiguity", "option_ambiguity", "reason")
    rows = [{k: dict(v) if k in maps else v for k, v in row.items()} for row in table.to_pylist()]
    expected = [json.loads(line) for line in (tmp_path / "jsonl" / "test.jsonl").open(encoding="utf-8")]
    assert rows == expected


def test_huggingface_datasets_loads_the_export(exported_project, tmp_path, monkeypatch):
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    import datasets

    out = tmp_path / "gold"
    gold_export(project=exported_project, fmt="jsonl", out_dir=out)

    loaded = datasets.load_dataset("json", data_dir=str(out), cache_dir=str(tmp_path / "cache"))

    assert list(loaded) == ["test"]
    assert loaded["test"].num_rows == 5
    assert loaded["test"][3]["question"] == SUNDANESE
    assert loaded["test"][1]["answers"] == {"W1": "A", "W3": "A", "W4": "A", "W5": "B", "W6": "B"}
    assert loaded["test"][1]["choices"]["text"] == ["Ketupat", "Pizza", "Sushi", "Taco", "Burger"]


def test_data_card(exported_project, tmp_path):
    gold_export(project=exported_project, fmt="jsonl", out_dir=tmp_path)

    card = (tmp_path / "README.md").read_text(encoding="utf-8")
    assert card.startswith('---\nlicense: "cc-by-nc-4.0"\nlanguage: ["id"]\n')
    assert 'configs: [{"config_name": "default", "data_files": [{"split": "test", "path": "test.jsonl"}]}]' in card
    assert "| test | test.jsonl | 5 |" in card
    assert "| @SUM(1) | id | 1 |" in card
    assert "| culinary | id | 4 |" in card  # the excluded item is not counted
    assert "6 annotators (W1, W2, W3, W4, W5, W6)." in card
    assert (
        "An item whose question is flagged ambiguous by more than 3 answerers is excluded (reason kept in the "
        "project). Excluded items: 1; they are not in this export."
    ) in card
    # Over the exported items: "=cmd...", "utf8" and "llm" (author A, majority A); not "plain-1" and "plain-2".
    assert "- Majority answer equals the author's answer: 3 of 5 items" in card
    assert card.endswith("## Licence\n\nCC BY-NC 4.0\n")


def test_rows_stream_chunk_by_chunk(exported_project):
    rows = gold_rows(project=exported_project, chunk_size=2)

    with CaptureQueriesContext(connection) as first:
        next(rows)
    with CaptureQueriesContext(connection) as rest:
        remaining = list(rows)

    # Annotators, the item cursor, then one answers query per chunk of two items: nothing is read ahead.
    assert (len(first), len(rest), len(remaining)) == (3, 2, 4)
    assert isinstance(gold_rows(project=exported_project), Iterator)


def test_json_lines_are_exactly_json_dumps_of_the_row(exported_project):
    csqa_import(path_or_bytes=messy_bytes(), project_slug="messy", language="id")
    records = [
        *gold_records(project=exported_project),
        *gold_records(project=Project.objects.get(slug="messy")),
    ]

    assert len(records) == 5 + 7
    for record in records:
        assert csqa_jsonl(record) == json.dumps(csqa_row(record), ensure_ascii=False)


def test_unreadable_import_values_are_exported_as_they_were(tmp_path):
    csqa_import(path_or_bytes=messy_bytes(), project_slug="messy", language="id")

    gold_export(project=Project.objects.get(slug="messy"), fmt="jsonl", out_dir=tmp_path)

    rows = {r["id"]: r for r in map(json.loads, (tmp_path / "test.jsonl").read_text(encoding="utf-8").splitlines())}
    assert rows["odd-vocab"]["answers_uncertainty"] == {
        "W2": "maybe",
        "W3": "uncertain",
        "W4": "certain",
        "W5": "certain",
        "W6": "certain",
    }
    assert rows["odd-vocab"]["question_ambiguity"] == {
        "W2": "clear",
        "W3": "clear",
        "W4": "sort of",
        "W5": "",
        "W6": "clear",
    }
    assert rows["empty-flags"]["option_ambiguity"] == {
        "W2": [],
        "W4": ["clear"] * 4,
        "W5": ["clear", "kinda", "clear", "clear", "clear"],
        "W6": ["clear"] * 5,
    }


def test_fullwidth_and_indented_formula_starts_are_neutralised_in_the_csv(tmp_path):
    project, w = make_project(slug="wide", annotators=4)
    item = make_item(project, w[0], external_id="\uff1dcmd|' /C calc'!A0", category=" =SUM(1)", question="\uff20A1?")
    for user in w[1:]:
        add_judgment(item, user, "A")
    gold_recompute_project(project=project)

    gold_export(project=project, fmt="csv", out_dir=tmp_path)

    with (tmp_path / "test.csv").open(encoding="utf-8", newline="") as f:
        rows = list(csv.reader(f))
    assert [rows[1][0], rows[1][1], rows[1][3]] == ["'\uff1dcmd|' /C calc'!A0", "' =SUM(1)", "'\uff20A1?"]
