"""Prompts and responses in: the IndoPref pair layout and the prompts format; the report's counts."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command

from annotation.errors import InvalidInput
from annotation.models import Item
from annotation.services.imports import items_import
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

# Two prompts; the first has three responses compared in three rows, the second one pair.
RELEASED = [
    {
        "id": "ip-1",
        "domain": "math",
        "language": "id",
        "input": "Berapa 2+2?",
        "response_1": "4",
        "response_2": "5",
        "actual_score": "Response 1",
    },
    {
        "id": "ip-2",
        "domain": "math",
        "language": "id",
        "input": "Berapa 2+2?",
        "response_1": "5",
        "response_2": "Empat",
        "actual_score": "Response 2",
    },
    {
        "id": "ip-3",
        "domain": "math",
        "language": "id",
        "input": "Berapa 2+2?",
        "response_1": "4",
        "response_2": "Empat",
        "actual_score": 1,
    },
    {
        "id": "ip-4",
        "domain": "safety",
        "language": "id",
        "input": "Cara membobol akun?",
        "response_1": "Tidak bisa membantu.",
        "response_2": "Begini caranya",
        "actual_score": "Respon 1",
    },
    {
        "id": "ip-5",
        "domain": "safety",
        "language": "id",
        "input": "x",
        "response_1": "a",
        "response_2": "b",
        "actual_score": "3",
    },
]


def _jsonl(rows) -> bytes:
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows).encode()


def _report(slug: str) -> dict:
    out = io.StringIO()
    call_command("report", slug, "--json", stdout=out)
    return json.loads(out.getvalue())


def test_indopref_rows_become_prompts_responses_and_human_preferences():
    summary = items_import(
        path_or_bytes=_jsonl(RELEASED), project_slug="indopref", format="indopref", language="id", creator=UserFactory()
    )

    assert (summary.items_created, summary.rows) == (2, 5)
    assert [(i.row, i.code) for i in summary.issues] == [(5, "bad_score")]
    math = Item.objects.get(project__slug="indopref", concept__category__name="math")
    payload = math.current_version.payload
    assert payload["prompt"] == "Berapa 2+2?"
    assert [(r["id"], r["text"]) for r in payload["responses"]] == [("r1", "4"), ("r2", "5"), ("r3", "Empat")]
    assert payload["human_pairs"] == [
        {"id": "ip-1", "chosen": "r1", "rejected": "r2", "first": "r1", "second": "r2"},
        {"id": "ip-2", "chosen": "r3", "rejected": "r2", "first": "r2", "second": "r3"},
        {"id": "ip-3", "chosen": "r1", "rejected": "r3", "first": "r1", "second": "r3"},
    ]
    report = _report("indopref")["preference"]
    assert (report["prompts"], report["responses"], report["ratings"], report["pairs"]) == (2, 5, 0, 4)
    assert report["by_domain"] == {"math": 3, "safety": 1}
    assert "alpha_relevance" not in report


def test_importing_the_same_file_again_creates_nothing():
    data = _jsonl(RELEASED)
    items_import(path_or_bytes=data, project_slug="again", format="indopref", language="id", creator=UserFactory())
    versions = sorted(Item.objects.filter(project__slug="again").values_list("current_version_id", flat=True))

    again = items_import(path_or_bytes=data, project_slug="again", format="indopref", language="id")

    assert (again.items_created, again.items_existing) == (0, 2)
    assert sorted(Item.objects.filter(project__slug="again").values_list("current_version_id", flat=True)) == versions


def test_a_file_with_a_broken_line_imports_nothing():
    data = _jsonl(RELEASED[:2]) + b"{not json\n"

    with pytest.raises(InvalidInput, match=r"^Line 3 is not valid JSON \(Expecting property name"):
        items_import(path_or_bytes=data, project_slug="broken", format="indopref", language="id", creator=UserFactory())

    assert not Item.objects.filter(project__slug="broken").exists()


def test_prompts_come_from_csv_with_their_category_and_input():
    csv_text = "id,category,prompt,input\nq1,summarization,Ringkas teks ini.,Teks panjang.\nq2,math,Berapa 3x3?,\n"

    summary = items_import(
        path_or_bytes=csv_text.encode(),
        project_slug="csvp",
        format="preference-prompts",
        language="id",
        creator=UserFactory(),
    )

    assert summary.items_created == 2
    rows = {
        i.external_id: (i.concept.category.name, i.current_version.payload)
        for i in Item.objects.filter(project__slug="csvp").select_related("concept__category", "current_version")
    }
    assert rows == {
        "q1": ("summarization", {"prompt": "Ringkas teks ini.", "input": "Teks panjang.", "responses": []}),
        "q2": ("math", {"prompt": "Berapa 3x3?", "input": "", "responses": []}),
    }
    report = _report("csvp")["preference"]
    assert (report["prompts"], report["responses"], report["pairs"]) == (2, 0, 0)
