"""Import (format arabculture), export_gold in the released layout, Parquet and the data card, the report."""

import json
from io import StringIO

import pyarrow.parquet as pq
import pytest
from django.core.management import call_command

from annotation.models import Item, Project
from tests.annotation.task_types.sentence_completion.data import jsonl, row

pytestmark = pytest.mark.django_db

ROWS = [
    row(worker="Egypt-1", sample="1 | Breakfast", k=0, answer="B", country="Egypt", other="No"),
    row(worker="Egypt-1", sample="2 | Breakfast", k=1, answer="A", country="Egypt", other="Yes"),
    row(worker="Egypt-2", sample="1 | Dinner", k=2, answer="C", country="Egypt", other="No", sub_topic="العشاء"),
    row(worker="KSA-1", sample="1 | Breakfast", k=3, answer="B", country="KSA", other="No"),
    row(worker="KSA-1", sample="2 | Food", k=4, answer="A", country="KSA", other="Yes", sub_topic="Food"),
    # Discarded in the release: imported as excluded, never exported.
    row(worker="KSA-2", sample="1 | Games", k=5, answer="C", country="KSA", discard="Yes", sub_topic="الألعاب"),
]


def _import(tmp_path, data: bytes, slug: str) -> dict:
    """import_items without --language: the format's default (ar) makes a right-to-left project."""
    path = tmp_path / f"{slug}.jsonl"
    path.write_bytes(data)
    out = StringIO()
    call_command(
        "import_items",
        str(path),
        "--project",
        slug,
        "--format",
        "arabculture",
        "--json",
        stdout=out,
    )
    return json.loads(out.getvalue())


def _export(slug: str, out_dir, fmt: str = "jsonl") -> None:
    call_command("export_gold", slug, "--format", fmt, "--out", str(out_dir), stdout=StringIO())


def _lines(path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_import_creates_the_project_with_its_authors_and_decisions(tmp_path):
    summary = _import(tmp_path, jsonl(ROWS), "arabculture")

    project = Project.objects.get(slug="arabculture")
    assert summary["project_created"] is True
    assert (summary["items_created"], summary["annotators_created"], summary["issue_counts"]) == (6, 4, {})
    assert project.task_type == "sentence_completion"
    assert list(project.languages.values_list("code", "direction")) == [("ar", "rtl")]
    # Kept (the gold decision says gold, and so does the status) or discarded with the reason.
    statuses = dict(Item.objects.filter(project=project).values_list("external_id", "status"))
    assert statuses == {
        "Egypt-1:1 | Breakfast": "gold",
        "Egypt-1:2 | Breakfast": "gold",
        "Egypt-2:1 | Dinner": "gold",
        "KSA-1:1 | Breakfast": "gold",
        "KSA-1:2 | Food": "gold",
        "KSA-2:1 | Games": "excluded",
    }
    assert Item.objects.get(external_id="KSA-2:1 | Games").status_reason == "Discarded in the release."
    assert Item.objects.get(external_id="KSA-1:2 | Food").concept.category.name == "Food"
    again = _import(tmp_path, jsonl(ROWS), "arabculture")
    assert (again["items_created"], again["items_existing"]) == (0, 6)


def test_export_gives_back_the_released_layout_and_export_then_import_is_lossless(tmp_path):
    _import(tmp_path, jsonl(ROWS), "arabculture")

    _export("arabculture", tmp_path / "out")

    exported = _lines(tmp_path / "out" / "test.jsonl")
    # Every export row ends with the item's language; the rest is the released layout.
    assert [row.pop("language") for row in exported] == ["ar"] * 5
    assert exported == ROWS[:5]
    assert list(exported[0]) == [
        "worker_id",
        "sample_id",
        "sub_topic",
        "first_statement",
        "options",
        "answer_key",
        "relevant_to_this_country",
        "relevant_to_other_countries",
        "should_discard",
        "country",
        "region",
    ]
    # Export, import into a new project, export again: the same bytes.
    _import(tmp_path, (tmp_path / "out" / "test.jsonl").read_bytes(), "arabculture-copy")
    _export("arabculture-copy", tmp_path / "copy")
    assert (tmp_path / "copy" / "test.jsonl").read_bytes() == (tmp_path / "out" / "test.jsonl").read_bytes()


def test_parquet_and_the_data_card(tmp_path):
    _import(tmp_path, jsonl(ROWS), "arabculture")

    _export("arabculture", tmp_path / "pq", fmt="parquet")

    table = pq.read_table(tmp_path / "pq" / "test.parquet")
    assert table.num_rows == 5
    assert table.to_pylist()[0] == {**ROWS[0], "language": "ar"}
    card = (tmp_path / "pq" / "README.md").read_text(encoding="utf-8")
    assert "| Egypt | 3 |" in card and "| KSA | 2 |" in card
    assert "Country-specific items (not relevant to other countries): 3 of 5 (60.0%)." in card


def test_report_json_has_the_completion_section(tmp_path):
    _import(tmp_path, jsonl(ROWS), "arabculture")
    out = StringIO()

    call_command("report", "arabculture", "--json", stdout=out)

    report = json.loads(out.getvalue())
    section = report["completion"]
    assert (section["items"], section["kept"], section["discarded"], section["rejected"]) == (6, 5, 1, 0)
    assert section["by_country"] == {
        "KSA": {"written": 3, "rejected": 0, "discarded": 1, "kept": 2, "pending": 0},
        "Egypt": {"written": 3, "rejected": 0, "discarded": 0, "kept": 3, "pending": 0},
    }
    assert section["by_region"] == {
        "Gulf": {"written": 3, "rejected": 0, "discarded": 1, "kept": 2, "pending": 0},
        "Nile Valley": {"written": 3, "rejected": 0, "discarded": 0, "kept": 3, "pending": 0},
    }
    assert section["country_specific"] == {"kept": 5, "country_specific": 3, "shared": 2, "unknown": 0, "share": 0.6}
    assert section["by_annotator"]["KSA-2"] == {"written": 1, "rejected": 0, "discarded": 1, "kept": 0, "pending": 0}


def test_a_bad_line_refuses_the_whole_file_and_odd_values_are_reported(tmp_path):
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="line 2: not JSON"):
        _import(tmp_path, jsonl(ROWS[:1]) + b"{oops\n", "bad")
    assert not Project.objects.filter(slug="bad").exists()

    odd = {**ROWS[0], "relevant_to_other_countries": "Maybe", "sample_id": "9 | Odd"}
    summary = _import(tmp_path, jsonl([odd]), "odd")
    assert summary["issue_counts"] == {"odd_relevant_to_other_countries": 1}
    _export("odd", tmp_path / "odd")
    assert _lines(tmp_path / "odd" / "test.jsonl") == [{**odd, "language": "ar"}]
