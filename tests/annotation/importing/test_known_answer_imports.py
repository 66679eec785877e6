"""A `known_answer` on a row of the KALAHI, ArabCulture and preference formats, through
POST /api/projects/<slug>/imports/: an answer the task type's judgments can give makes the item a
known-answer check; any other refuses the whole file with a 400 naming the row's line and the field, and
nothing is imported. An indopref row (one pair of a prompt) can't be a check and is refused the same way.
(id-csqa, indonli and mnli: tests/qc/test_export_import_roundtrip.py.)"""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from annotation.models import Item
from annotation.services.imports import import_format
from annotation.services.projects import project_create
from tests.annotation.importing.samples import SAMPLES
from tests.api.conftest import db_state
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

LANGUAGES = {"kalahi": "fil", "arabculture": "ar"}


def _client(format_name: str) -> tuple[str, APIClient]:
    admin = UserFactory()
    slug = format_name
    project_create(
        creator=admin,
        name=slug,
        slug=slug,
        task_type=import_format(format_name).task_type,
        languages=[{"code": LANGUAGES.get(format_name, "id"), "name": "Language"}],
    )
    client = APIClient()
    client.force_login(admin)
    return slug, client


def _post(client: APIClient, slug: str, format_name: str, data: bytes):
    return client.post(
        f"/api/projects/{slug}/imports/",
        {
            "file": SimpleUploadedFile(f"upload.{SAMPLES[format_name].layout}", data),
            "format": format_name,
            "language": LANGUAGES.get(format_name, "id"),
        },
        format="multipart",
    )


def _rows(format_name: str, answers: list[str]) -> list[dict]:
    rows = SAMPLES[format_name].rows(len(answers))
    for row, answer in zip(rows, answers, strict=True):
        if format_name == "preference-prompts":
            row["responses"] = [
                {"model": "m1", "text": f"{row['prompt']} Jawaban satu."},
                {"model": "m2", "text": f"{row['prompt']} Jawaban dua."},
            ]
        row["known_answer"] = answer  # every row names the column: a CSV's header comes from row 1
    return rows


def _checks(slug: str) -> list[tuple[str, str, str]]:
    return list(
        Item.objects.filter(project__slug=slug)
        .exclude(status__in=("approved", "judged", "gold", "excluded"))
        .order_by("pk")
        .values_list("external_id", "status", "known_answer")
    )


ACCEPTED = [
    ("kalahi", "best", "00200"),
    ("kalahi", "irrelevant_3", "00200"),
    ("arabculture", "A", "Egypt-1:2 | Breakfast"),
    ("preference-prompts", "r2", "prompt-2"),
]


@pytest.mark.parametrize(("format_name", "answer", "external_id"), ACCEPTED)
def test_a_row_with_an_answer_its_judges_can_give_comes_in_as_a_check(format_name, answer, external_id):
    slug, client = _client(format_name)

    response = _post(client, slug, format_name, SAMPLES[format_name].file(_rows(format_name, ["", answer, ""])))

    assert response.status_code == 201, response.json()
    assert response.json()["items_created"] == 3
    assert _checks(slug) == [(external_id, "check", answer)]


# (format, a bad answer, the line where the third row starts, the answers the item allows); a KALAHI
# prompt takes two lines of its CSV, after the header.
REFUSED = [
    ("kalahi", "irrelevant_4", 6, "best, irrelevant_1, irrelevant_2, irrelevant_3"),
    ("kalahi", "Pagkain", 6, "best, irrelevant_1, irrelevant_2, irrelevant_3"),
    ("arabculture", "D", 3, "A, B, C"),
    ("arabculture", "ب", 3, "A, B, C"),
    ("preference-prompts", "r3", 3, "r1, r2"),
    ("preference-prompts", "2", 3, "r1, r2"),
]


@pytest.mark.parametrize(("format_name", "answer", "line", "choices"), REFUSED)
def test_a_row_with_an_answer_its_judges_cannot_give_refuses_the_file_naming_line_and_field(
    format_name, answer, line, choices
):
    slug, client = _client(format_name)
    good = {"kalahi": "best", "arabculture": "B", "preference-prompts": "r1"}[format_name]
    before = db_state()

    response = _post(client, slug, format_name, SAMPLES[format_name].file(_rows(format_name, [good, "", answer])))

    assert response.status_code == 400
    message = (
        f"Row {line}, known_answer: “{answer}” is not an answer of this item (one of: {choices}); nothing was imported."
    )
    assert response.json() == {"detail": message, "code": "invalid", "errors": {"file": [message]}}
    assert db_state() == before


def test_a_prompt_with_one_response_cannot_be_a_check_and_refuses_the_file():
    slug, client = _client("preference-prompts")
    rows = _rows("preference-prompts", ["r1"])
    rows[0]["responses"] = rows[0]["responses"][:1]
    before = db_state()

    response = _post(client, slug, "preference-prompts", SAMPLES["preference-prompts"].file(rows))

    assert response.status_code == 400
    assert response.json()["detail"] == (
        "Row 1, known_answer: “r1” is not an answer of this item (one of: -); nothing was imported."
    )
    assert db_state() == before


def test_a_known_answer_names_a_response_by_the_files_own_id():
    slug, client = _client("preference-prompts")
    rows = _rows("preference-prompts", ["r1"])
    rows[0]["responses"] = [
        {"id": "r2", "model": "m2", "text": "Shown first, the file's r2."},
        {"id": "r1", "model": "m1", "text": "Shown second, the file's r1."},
    ]

    response = _post(client, slug, "preference-prompts", SAMPLES["preference-prompts"].file(rows))

    assert response.status_code == 201, response.json()
    item = Item.objects.select_related("current_version").get(project__slug=slug)
    responses = {r["id"]: r["text"] for r in item.current_version.payload["responses"]}
    assert (item.status, item.known_answer) == ("check", "r2")
    assert responses == {"r1": "Shown first, the file's r2.", "r2": "Shown second, the file's r1."}


def test_an_indopref_pair_with_a_known_answer_refuses_the_file():
    slug, client = _client("indopref")
    rows = SAMPLES["indopref"].rows(3)
    rows[1]["known_answer"] = "Response 1"
    before = db_state()

    response = _post(client, slug, "indopref", SAMPLES["indopref"].file(rows))

    assert response.status_code == 400
    assert response.json()["detail"] == (
        "Row 2, known_answer: an indopref row is one pair of a prompt's responses, and a known-answer check "
        "expects the best of all of them; import checks in the preference-prompts format (known_answer: a "
        "response's id). Nothing was imported."
    )
    assert db_state() == before
