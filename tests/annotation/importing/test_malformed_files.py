"""Malformed files through POST /api/projects/<slug>/imports/, for every registered import format: NUL,
lone surrogates, JSON nested 100,000 deep, 5,000-digit numbers, fields longer than their column, wrong
types in every field. Never a 500; a refused file answers 400 naming the line (and the field) and leaves
the project as it was."""

from __future__ import annotations

import json
import re
from dataclasses import replace

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from annotation import limits
from annotation.models import Category, Concept, Item, ItemVersion, Judgment, Membership
from annotation.services.imports import import_format, import_formats
from annotation.services.projects import project_create
from qc.models import GoldDecision
from tests.annotation.importing.samples import SAMPLES
from tests.api.conftest import db_state
from tests.factories import UserFactory

pytestmark = [pytest.mark.django_db, pytest.mark.filterwarnings("ignore:Generating overly large repr")]

User = get_user_model()
DEEP = "[" * 100_000 + "]" * 100_000
BIG_NUMBER = "9" * 5000
SURROGATE = "Remove the unpaired surrogate (\\ud800): it is not a character."
# A sentinel a generated value may be; replaced in the file's text by what json.dumps can't write.
RAW = {"@@deep@@": DEEP, "@@big@@": BIG_NUMBER, "@@inf@@": "1e400"}


def test_every_format_has_a_sample():
    assert sorted(SAMPLES) == sorted(f.name for f in import_formats())


def _project(format_name: str):
    admin = UserFactory()
    slug = re.sub(r"[^a-z0-9]+", "-", format_name)
    project_create(
        creator=admin,
        name=slug,
        slug=slug,
        task_type=import_format(format_name).task_type,
        languages=[{"code": "id", "name": "Indonesian"}],
    )
    client = APIClient()
    client.force_login(admin)
    return slug, client


def _post(client: APIClient, slug: str, format_name: str, data: bytes, *, layout: str = ""):
    name = f"upload.{layout or SAMPLES[format_name].layout}"
    return client.post(
        f"/api/projects/{slug}/imports/",
        {"file": SimpleUploadedFile(name, data), "format": format_name, "language": "id"},
        format="multipart",
    )


def _with_raw(data: bytes) -> bytes:
    for sentinel, raw in RAW.items():
        data = data.replace(json.dumps(sentinel).encode(), raw.encode()).replace(sentinel.encode(), raw.encode())
    return data


def _counts() -> dict[str, int]:
    models = (Item, ItemVersion, Judgment, Membership, Category, Concept, GoldDecision, User)
    return {model.__name__: model.objects.count() for model in models}


def _message(response) -> str:
    body = response.json()
    assert body["errors"]["file"] == [body["detail"]]
    return body["detail"]


# --- every format, every top-level field: each defect is a 400 naming the line and the field ------------

FORMAT_FIELDS = [(name, field) for name, sample in SAMPLES.items() for field in sample.row(1)]


@pytest.mark.parametrize(("format_name", "field"), FORMAT_FIELDS)
def test_nul_in_any_field_is_refused_with_its_line_and_field(format_name, field):
    sample = SAMPLES[format_name]
    slug, client = _project(format_name)
    rows = sample.rows(3)
    rows[1][field] = "ren\x00dang"
    before = _counts()

    response = _post(client, slug, format_name, sample.file(rows))

    line = sample.file(rows[:1]).count(b"\n") + 1  # where row 2 starts (a CSV header, a prompt's lines)
    assert response.status_code == 400
    message = _message(response)
    assert re.search(rf"\b[Ll]ine {line}\b|\bRow {line}\b", message), message
    assert field in message
    assert limits.NUL in message
    assert _counts() == before


JSON_FORMAT_FIELDS = [(name, field) for name, field in FORMAT_FIELDS if SAMPLES[name].layout == "jsonl"]


@pytest.mark.parametrize(("format_name", "field"), JSON_FORMAT_FIELDS)
def test_lone_surrogate_in_any_field_is_refused_with_its_line_and_field(format_name, field):
    sample = SAMPLES[format_name]
    slug, client = _project(format_name)
    rows = sample.rows(3)
    rows[1][field] = {"text": ["ok", "a\ud800b"]}
    before = _counts()

    response = _post(client, slug, format_name, sample.file(rows))

    assert response.status_code == 400
    message = _message(response)
    assert re.search(r"\b[Ll]ine 2\b|\bRow 2\b", message), message
    assert f"{field}.text[1]" in message
    assert SURROGATE in message
    assert _counts() == before


@pytest.mark.parametrize(("format_name", "field"), JSON_FORMAT_FIELDS)
@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        ("@@deep@@", "nested too deeply"),
        ("@@big@@", "a number has more than 4,300 digits"),
        ("@@inf@@", "1e400 is not a finite number"),
    ],
    ids=["nested-100000", "5000-digits", "1e400"],
)
def test_json_python_cannot_read_is_refused_with_its_line(format_name, field, raw, reason):
    sample = SAMPLES[format_name]
    slug, client = _project(format_name)
    rows = sample.rows(3)
    rows[1][field] = raw
    before = _counts()

    response = _post(client, slug, format_name, _with_raw(sample.file(rows)))

    assert response.status_code == 400
    message = _message(response)
    assert re.search(r"\b[Ll]ine 2\b|\bRow 2\b", message), message
    assert reason in message
    assert _counts() == before


WRONG_TYPES = [["a", "b"], {"a": 1}, True, 3.5, None, 10**40, ""]


@pytest.mark.parametrize(("format_name", "field"), FORMAT_FIELDS)
def test_a_wrong_type_in_any_field_never_fails_the_server(format_name, field):
    sample = SAMPLES[format_name]
    slug, client = _project(format_name)
    for wrong in WRONG_TYPES:
        rows = sample.rows(3)
        rows[1][field] = wrong
        before = _counts()

        response = _post(client, slug, format_name, sample.file(rows))

        assert response.status_code in (201, 400), (wrong, response.content[:500])
        if response.status_code == 400:
            assert re.search(r"\b([Ll]ine|Row) 2\b", _message(response)), (wrong, _message(response))
            assert _counts() == before


def test_nli_data_split_as_a_list_is_refused_with_its_line():
    sample = SAMPLES["indonli"]
    slug, client = _project("indonli")
    rows = sample.rows(3)
    rows[1]["data_split"] = ["train", "dev"]
    before = db_state()

    response = _post(client, slug, "indonli", sample.file(rows))

    assert response.status_code == 400
    assert _message(response) == (
        "1 line(s) can't be read: line 2: data_split is a JSON array, not a single value. Nothing was imported."
    )
    assert db_state() == before


def test_a_3_mb_kalahi_category_is_refused_with_its_line_and_column():
    sample = SAMPLES["kalahi"]
    slug, client = _project("kalahi")
    rows = sample.rows(3)
    rows[1]["category"] = "k" * 3_000_000
    before = db_state()

    response = _post(client, slug, "kalahi", sample.file(rows))

    assert response.status_code == 400
    # Line 4: the header is line 1 and the first row's prompt spans lines 2 and 3.
    assert _message(response) == "Line 4: a value is longer than 131,072 characters; nothing was imported."
    assert db_state() == before


def test_a_3_mb_json_field_for_a_200_character_column_is_refused_with_its_row_and_field():
    sample = SAMPLES["preference-prompts"]
    slug, client = _project("preference-prompts")
    rows = sample.rows(3)
    rows[1]["category"] = "k" * 3_000_000
    before = db_state()

    response = _post(client, slug, "preference-prompts", sample.file(rows))

    assert response.status_code == 400
    assert _message(response) == (
        "Row 2, category: Use at most 200 characters (this has 3000000). Nothing was imported."
    )
    assert db_state() == before


# --- generated files: whatever the values, never a 500, and a refusal changes nothing -----------------

NASTY_TEXT = st.sampled_from(["\x00", "a\x00b", "\ud800", "x\udfffy", '"', "\n", ",", "k" * 301, " ", ""]) | st.text(
    max_size=20
)
NASTY = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | NASTY_TEXT
    | st.sampled_from(list(RAW)),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(NASTY_TEXT, children, max_size=4),
    max_leaves=12,
)


# Every format in each layout it reads: kalahi also reads JSON Lines, the preference formats CSV.
LAYOUTS = [(name, sample.layout) for name, sample in SAMPLES.items()]
LAYOUTS += [("kalahi", "jsonl"), ("indopref", "csv"), ("preference-prompts", "csv")]


@st.composite
def broken_files(draw, format_name: str, layout: str) -> bytes:
    sample = replace(SAMPLES[format_name], layout=layout)
    rows = sample.rows(draw(st.integers(1, 4)))
    for row in rows:
        for field in draw(st.lists(st.sampled_from(sorted(row)), max_size=3, unique=True)):
            row[field] = draw(NASTY) if layout == "jsonl" else draw(NASTY_TEXT)
    return _with_raw(sample.file(rows))


@pytest.mark.parametrize(("format_name", "layout"), LAYOUTS)
def test_generated_broken_files_never_fail_the_server(format_name, layout):
    slug, client = _project(format_name)

    @settings(max_examples=30, derandomize=True, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(data=broken_files(format_name, layout))
    def fuzz(data):
        before = _counts()
        response = _post(client, slug, format_name, data, layout=layout)
        assert response.status_code in (201, 400), (response.status_code, data[:500])
        if response.status_code == 400:
            assert _counts() == before
            assert re.search(r"\b([Ll]ine|Row) \d+\b", _message(response)), _message(response)

    fuzz()
