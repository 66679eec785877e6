"""Every import accepts what the matching export writes: for each import format, a project of
its task type with gold items (the format's sample file, tests/annotation/importing/samples.py, imported),
its gold export (qc.exports.gold_export) imported into a new project with the same format, exported
again: the two exports hold the same rows, field for field, in the same order.

What must be equal, per format (the export of the copy against the export of the original):
- id-csqa (JSON Lines): every row, every field (ids, question, choices, the author's and the judges'
  answers under the same annotator codes).
- indonli (JSON Lines): every row, every field (pair and premise ids, texts, labels, split).
- kalahi (CSV and JSON Lines): every row, every field (the prompt, its parts, best, relevant and
  irrelevant responses); the CSV's neutralising quote is read back.
- arabculture (JSON Lines): every row, every field (bench/arabculture.py checks the same bytes at scale).
- sentiment-jsonl (the tutorial's task type, JSON Lines): every row, every field (ids, text, labels, judges).
- preference-prompts (JSON Lines and CSV): of a project without ratings, every row, every field. Of a rated
  project: id, domain, language, prompt, input and responses; its ratings and pairs are not imported (the
  format brings prompts to be rated), so the copy exports them empty.

id-csqa, indonli, arabculture and sentiment-jsonl are JSON layouts: their importers read JSON (Lines) only, so the gold
export's JSON Lines file is the one that goes back in (its CSV and Parquet files are for reading).

Formats without a matching gold export:
- mnli: an external dataset's layout (MNLI/SNLI label1..label5 columns); Gotong writes NLI as indonli.
- indopref: the released pair layout is not a gold export; it is the pair export of the model side
  (evaluation/task_types/preference/exports.py, `export_pairs --shape indopref`), whose round trip
  (JSON Lines and CSV) is tested here too: every pair row, every field, equal.
"""

from __future__ import annotations

import csv
import io
import json

import pytest
from django.core.management import call_command

from annotation.errors import InvalidInput
from annotation.models import Item, Project
from annotation.services.imports import import_formats, items_import
from evaluation.task_types.preference.exports import export_pairs
from qc.exports import gold_export
from qc.exports.checks import checks_export
from tests.annotation.importing.samples import SAMPLES
from tests.annotation.task_types.preference.world import make_world, plan, rate_all

pytestmark = pytest.mark.django_db

LANGUAGES = {"arabculture": "ar", "kalahi": "fil"}
ROUND_TRIPS = [
    ("id-csqa", "jsonl"),
    ("indonli", "jsonl"),
    ("kalahi", "csv"),
    ("kalahi", "jsonl"),
    ("arabculture", "jsonl"),
    ("preference-prompts", "jsonl"),
    ("preference-prompts", "csv"),
    ("sentiment-jsonl", "jsonl"),
]
NO_GOLD_EXPORT = {"mnli", "indopref"}  # indopref: the pair export, tested below


def _import(data: bytes, slug: str, fmt: str):
    return items_import(path_or_bytes=data, project_slug=slug, format=fmt, language=LANGUAGES.get(fmt, "id"))


def _export(slug: str, fmt: str, out_dir) -> bytes:
    result = gold_export(project=Project.objects.get(slug=slug), fmt=fmt, out_dir=out_dir)
    assert len(result.files) == 1, result.files
    (name,) = result.files.values()
    return (out_dir / name).read_bytes()


def _rows(data: bytes, fmt: str) -> list[dict]:
    if fmt == "jsonl":
        return [json.loads(line) for line in data.decode("utf-8").splitlines()]
    return list(csv.DictReader(io.StringIO(data.decode("utf-8"))))


def test_every_import_format_has_a_round_trip_or_is_named_as_without_an_export():
    assert {f.name for f in import_formats()} == {fmt for fmt, _ in ROUND_TRIPS} | NO_GOLD_EXPORT


@pytest.mark.parametrize(("import_format", "export_format"), ROUND_TRIPS)
def test_an_export_imports_into_a_new_project_and_exports_the_same_rows(import_format, export_format, tmp_path):
    sample = SAMPLES[import_format]
    original = _import(sample.file(sample.rows(3)), "original", import_format)
    assert (original.items_created, original.rows_skipped) == (3, [])
    first = _export("original", export_format, tmp_path / "first")
    first_rows = _rows(first, export_format)
    assert len(first_rows) == 3

    copy = _import(first, "copy", import_format)

    assert (copy.items_created, copy.rows_skipped, copy.issue_counts) == (3, [], {})
    assert Item.objects.filter(project__slug="copy").count() == 3
    again = _export("copy", export_format, tmp_path / "again")
    assert _rows(again, export_format) == first_rows


def test_a_rated_preference_export_imports_its_prompts_and_responses(tmp_path):
    world = make_world(slug="rated", raters_per_group=2)
    plan(world)
    rate_all(world)
    first_rows = _rows(_export("rated", "jsonl", tmp_path / "first"), "jsonl")
    assert len(first_rows) == 20
    assert all(row["ratings"] for row in first_rows)

    copy = _import((tmp_path / "first" / "test.jsonl").read_bytes(), "copy", "preference-prompts")

    assert (copy.items_created, copy.rows_skipped, copy.issue_counts) == (20, [], {})
    again = _rows(_export("copy", "jsonl", tmp_path / "again"), "jsonl")
    kept = ("id", "domain", "language", "prompt", "input", "responses")
    assert [{k: row[k] for k in kept} for row in again] == [{k: row[k] for k in kept} for row in first_rows]
    assert [(row["ratings"], row["pairs"]) for row in again] == [([], [])] * 20


@pytest.mark.parametrize("fmt", ["jsonl", "csv"])
def test_an_indopref_pair_export_imports_into_a_new_project_and_exports_the_same_pairs(fmt, tmp_path):
    sample = SAMPLES["indopref"]
    assert _import(sample.file(sample.rows(3)), "original", "indopref").items_created == 3
    written = export_pairs(
        project=Project.objects.get(slug="original"), shape="indopref", fmt=fmt, folder=tmp_path / "a"
    )
    first = (tmp_path / "a" / written["file"]).read_bytes()
    first_rows = _rows(first, fmt)
    assert len(first_rows) == 3

    copy = _import(first, "copy", "indopref")

    assert (copy.items_created, copy.rows_skipped, copy.issue_counts) == (3, [], {})
    again = export_pairs(project=Project.objects.get(slug="copy"), shape="indopref", fmt=fmt, folder=tmp_path / "b")
    assert _rows((tmp_path / "b" / again["file"]).read_bytes(), fmt) == first_rows


# Known-answer checks travel in their own file (qc.exports.checks): the gold export never holds one.
# (format, the check's answer, the field naming a row in both the file and the gold export)
CHECK_ROUND_TRIPS = [
    ("id-csqa", "B", "id"),
    ("indonli", "neutral", "pair_id"),
    ("kalahi", "best", "prompt_variation_id"),
    ("arabculture", "C", "sample_id"),
    ("preference-prompts", "r2", "id"),
]


def _two_responses(row: dict) -> dict:
    """A prompt a best pick can measure a rater on: two responses (the sample has one)."""
    return {**row, "responses": [{"model": "m1", "text": "Jawaban pendek."}, {"model": "m2", "text": "Jawaban lain."}]}


@pytest.mark.parametrize(("import_format", "answer", "id_field"), CHECK_ROUND_TRIPS)
def test_a_checks_export_imports_as_the_same_checks_and_the_gold_export_leaves_them_out(
    import_format, answer, id_field, tmp_path
):
    sample = SAMPLES[import_format]
    rows = sample.rows(3)
    if import_format == "preference-prompts":
        rows[1] = _two_responses(rows[1])
    for row in rows:  # an empty known_answer is an ordinary item (and a CSV names its columns in row 1)
        row["known_answer"] = ""
    rows[1]["known_answer"] = answer
    original = _import(sample.file(rows), "original", import_format)
    assert (original.items_created, original.rows_skipped, original.issue_counts) == (3, [], {})
    check = Item.objects.get(project__slug="original", status=Item.Status.CHECK)
    assert check.known_answer == answer
    gold_rows = _rows(_export("original", "jsonl", tmp_path / "g"), "jsonl")
    assert [str(row[id_field]) for row in gold_rows] == [str(rows[0][id_field]), str(rows[2][id_field])]
    path, written = checks_export(project=Project.objects.get(slug="original"), out_dir=tmp_path / "first")
    first_rows = _rows(path.read_bytes(), "jsonl")
    assert (written, [(str(row[id_field]), row["known_answer"]) for row in first_rows]) == (
        1,
        [(str(rows[1][id_field]), answer)],
    )

    copy = _import(path.read_bytes(), "copy", import_format)

    assert (copy.items_created, copy.rows_skipped, copy.issue_counts) == (1, [], {})
    assert list(Item.objects.filter(project__slug="copy").values_list("status", "known_answer")) == [("check", answer)]
    again, _ = checks_export(project=Project.objects.get(slug="copy"), out_dir=tmp_path / "again")
    assert _rows(again.read_bytes(), "jsonl") == first_rows


@pytest.mark.parametrize(
    ("import_format", "answer", "choices"),
    [
        ("id-csqa", "F", "A, B, C, D, E"),
        ("indonli", "maybe", "entailment, neutral, contradiction"),
        ("mnli", "e", "entailment, neutral, contradiction"),
    ],
)
def test_an_import_with_a_known_answer_the_task_type_cannot_expect_is_refused_whole(import_format, answer, choices):
    sample = SAMPLES[import_format]
    rows = sample.rows(3)
    rows[0]["known_answer"] = "A" if import_format == "id-csqa" else "neutral"  # a good one comes first
    rows[2]["known_answer"] = answer

    with pytest.raises(InvalidInput) as refused:
        _import(sample.file(rows), "original", import_format)

    assert refused.value.message == (
        f"Row 3, known_answer: “{answer}” is not an answer of this item (one of: {choices}); nothing was imported."
    )
    assert Item.objects.count() == 0


def test_export_gold_with_checks_writes_the_checks_file(tmp_path):
    sample = SAMPLES["id-csqa"]
    rows = sample.rows(2)
    rows[0]["known_answer"] = "C"
    _import(sample.file(rows), "original", "id-csqa")
    out = io.StringIO()

    call_command("export_gold", "original", "--checks", "--out", str(tmp_path), stdout=out)

    assert out.getvalue() == f"checks: 1 items -> {tmp_path / 'checks.jsonl'}\n"
    (row,) = _rows((tmp_path / "checks.jsonl").read_bytes(), "jsonl")
    assert (row["id"], row["known_answer"]) == (rows[0]["id"], "C")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["checks.jsonl"]
