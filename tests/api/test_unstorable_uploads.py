"""Concept and id-csqa files with text a database can't hold, or that Python's readers choke on:
a 400 naming the line and the field, on the API and on the page, and nothing imported."""

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from rest_framework.test import APIClient

from tests.api.conftest import db_state

pytestmark = pytest.mark.django_db

LONG_CELL = "x" * 131_073
NUL = "Remove the NUL character (\\u0000): text can't contain it."

CASES = [
    pytest.param(
        "c.jsonl",
        b'{"category": "kuliner", "concept": "ren\\u0000dang"}\n',
        ["Line 1, concept: " + NUL],
        id="nul-in-jsonl",
    ),
    pytest.param(
        "c.csv",
        b"category,concept\nkuliner,rendang\nkuliner,so\x00to\n",
        ["Line 3, concept: " + NUL],
        id="nul-in-csv",
    ),
    pytest.param(
        "c.jsonl",
        b'{"category": "kuliner", "concept": "rendang", "translations": {"id": "\\ud800"}}\n',
        ["Line 1, concept_id: Remove the unpaired surrogate (\\ud800): it is not a character."],
        id="lone-surrogate-in-jsonl",
    ),
    pytest.param(
        "c.csv",
        f"category,concept\nkuliner,rendang\nkuliner,{LONG_CELL}\n".encode(),
        ["Line 3: a cell is longer than 131,072 characters (a concept may have 300)."],
        id="csv-cell-over-the-field-size-limit",
    ),
    pytest.param(
        "c.jsonl",
        b'{"category": "kuliner", "concept": "rendang"}\n' + b"[" * 100_000 + b"]" * 100_000 + b"\n",
        ["Line 2: not valid JSON (nested too deeply)."],
        id="jsonl-nested-100000",
    ),
    pytest.param(
        "c.jsonl",
        b'{"category": "kuliner", "concept": "rendang"}\n' + b"9" * 5000 + b"\n",
        ["Line 2: not valid JSON (a number has more than 4,300 digits)."],
        id="jsonl-number-of-5000-digits",
    ),
    pytest.param(
        "c.csv",
        ("category,concept\n" + "k" * 201 + ",rendang\n").encode(),
        ["Line 2, category: Use at most 200 characters (this has 201)."],
        id="category-of-201",
    ),
    pytest.param(
        "c.jsonl",
        json.dumps({"category": "kuliner", "concept": "k" * 301}).encode(),
        ["Line 1, concept: Use at most 300 characters (this has 301)."],
        id="concept-of-301",
    ),
    pytest.param(
        "c.jsonl",
        b'{"category": ["kuliner"], "concept": {"a": 1}}\n',
        ["Line 1: category, concept must be text."],
        id="not-text",
    ),
]


def admin_client(user) -> APIClient:
    client = APIClient()
    client.force_login(user)
    return client


@pytest.mark.parametrize(("name", "data", "errors"), CASES)
def test_concept_file_is_refused_over_the_api_naming_the_line(csqa, name, data, errors):
    client = admin_client(csqa.admin)
    before = db_state()

    response = client.post(
        "/api/projects/demo/concepts/import/", {"file": SimpleUploadedFile(name, data)}, format="multipart"
    )

    assert (response.status_code, response.json()) == (
        400,
        {
            "detail": f"Nothing was imported: {len(errors)} problem(s) in the file.",
            "code": "invalid",
            "errors": {"file": errors},
        },
    )
    assert db_state() == before


@pytest.mark.parametrize(("name", "data", "errors"), CASES[:2] + CASES[3:5])
def test_concept_file_is_refused_on_the_page_naming_the_line(csqa, client, name, data, errors):
    client.force_login(csqa.admin)
    before = db_state()

    response = client.post(reverse("project_concepts", args=["demo"]), {"file": SimpleUploadedFile(name, data)})

    assert response.status_code == 400
    assert f'<li dir="auto">{errors[0]}</li>'.replace("'", "&#x27;") in response.content.decode()
    assert db_state() == before


@pytest.mark.parametrize(
    ("data", "detail"),
    [
        (
            b'[{"id": "a", "question": "Kapan\\u0000?"}]',
            "Row 1, question: Remove the NUL character (\\u0000): text can't contain it. Nothing was imported.",
        ),
        (
            b'{"id": "a"}\n{"id": "b", "reason": {"W1": "\\udc00"}}\n',
            "Row 2, reason.W1: Remove the unpaired surrogate (\\udc00): it is not a character. Nothing was imported.",
        ),
        (b"[" * 100_000 + b"]" * 100_000, "The file is not valid JSON (nested too deeply); nothing was imported."),
        (
            b'{"id": "a"}\n' + b"[" * 100_000 + b"]" * 100_000,
            "Line 2 is not valid JSON (nested too deeply); nothing was imported.",
        ),
        (
            json.dumps([{"id": "a", "category": "k" * 201, "question": "Apa?"}]).encode(),
            "Row 1, category: Use at most 200 characters (this has 201). Nothing was imported.",
        ),
    ],
    ids=["nul", "lone-surrogate", "nested-array", "nested-line", "category-of-201"],
)
def test_csqa_file_that_cannot_be_stored_is_refused_over_the_api(csqa, data, detail):
    client = admin_client(csqa.admin)
    before = db_state()

    response = client.post(
        "/api/projects/demo/imports/", {"file": SimpleUploadedFile("x.json", data)}, format="multipart"
    )

    assert (response.status_code, response.json()) == (
        400,
        {"detail": detail, "code": "invalid", "errors": {"file": [detail]}},
    )
    assert db_state() == before


def test_nul_in_a_form_field_of_an_upload_is_refused_by_the_serializer(csqa):
    client = admin_client(csqa.admin)
    before = db_state()

    response = client.post(
        "/api/projects/demo/imports/",
        {"file": SimpleUploadedFile("x.json", b"[]"), "annotator_regions": "W1=Sun\x00da"},
        format="multipart",
    )

    assert (response.status_code, response.json()["errors"]) == (
        400,
        {"annotator_regions": ["Null characters are not allowed."]},
    )
    assert db_state() == before
