"""Schemathesis over every API write endpoint (POST, PUT, PATCH, DELETE): whatever arrives, no 5xx.

The schema comes from drf-spectacular in-process. Requests go through Django's test client (the whole
middleware stack) signed in by session as a project admin who is also site staff, so every endpoint
is reachable. Path parameters are the fixture's real ids (the admin's own assignments, an item
waiting for review) so the examples reach the services, not a 404. Each example is rolled back, so
every one starts from the same project; generation is derandomized and bounded by
GOTONG_FUZZ_EXAMPLES per operation (schema-conforming and schema-violating data mixed).

The two file imports get files built for them too (concept CSV / JSON Lines, id-csqa rows): the
schema can only say "binary", and random bytes stop at "not UTF-8".
"""

from __future__ import annotations

import copy
import csv
import io
import json
import os
from functools import cache
from typing import Any

import pytest
import requests
import schemathesis
from django.conf import settings as django_settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import transaction
from django.test import Client
from drf_spectacular.generators import SchemaGenerator
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode

from annotation.models import Assignment, Membership
from annotation.services.assignments import assignment_plan_authoring
from annotation.services.items import item_submit
from qc.services import review_approve
from tests.conftest import VALID_PAYLOAD
from tests.factories import make_csqa_project

pytestmark = [
    pytest.mark.django_db,
    # Hypothesis warns when it prints a 50,000-character example; that size is the point here.
    pytest.mark.filterwarnings("ignore:Generating overly large repr"),
]

EXAMPLES = int(os.environ.get("GOTONG_FUZZ_EXAMPLES", "25"))
WRITES = ("post", "put", "patch", "delete")


@cache
def openapi() -> dict[str, Any]:
    return SchemaGenerator().get_schema(request=None, public=True)


def write_operations() -> list[str]:
    return [
        f"{method.upper()} {path}"
        for path, operations in openapi()["paths"].items()
        for method in operations
        if method in WRITES
    ]


@pytest.fixture
def world(db):
    csqa = make_csqa_project(slug="fuzz", annotators=3)
    csqa.admin.is_staff = True
    csqa.admin.save(update_fields=["is_staff"])
    assignment_plan_authoring(project=csqa.project)
    first, second = csqa.annotators[:2]
    mine = Assignment.objects.filter(user=first).order_by("position", "id")
    submitted = item_submit(assignment_id=mine[0].pk, user=first, data=VALID_PAYLOAD, justification="Sinonim.")
    theirs = Assignment.objects.filter(user=second).order_by("position", "id").first()
    approved = item_submit(assignment_id=theirs.pk, user=second, data=VALID_PAYLOAD, justification="Sinonim.")
    review_approve(item_id=approved.pk, version_id=approved.current_version_id, reviewer=csqa.reviewer)
    concept = theirs.concept
    own_author = Assignment.objects.create(
        project=csqa.project, user=csqa.admin, kind=Assignment.Kind.AUTHOR, concept=concept
    )
    own_answer = Assignment.objects.create(
        project=csqa.project,
        user=csqa.admin,
        kind=Assignment.Kind.ANSWER,
        target_item=approved,
        target_author=second,
    )
    path_ids = {
        "slug": "fuzz",
        "item_id": submitted.pk,
        "membership_id": Membership.objects.get(project=csqa.project, user=first).pk,
        # The admin's own work: authoring for draft/submit, judging for judgments (and the older answers/).
        "assignment_id": {"assignments": own_author.pk, "judgments": own_answer.pk, "answers": own_answer.pk},
    }
    return csqa, path_ids, submitted.current_version_id


def path_parameters(path: str, path_ids: dict[str, Any]) -> dict[str, Any]:
    """Real ids for the operation's path, so the examples reach the services instead of a 404."""
    fixed = {}
    for name, value in path_ids.items():
        if f"{{{name}}}" in path:
            fixed[name] = value[path.split("/")[4]] if isinstance(value, dict) else value
    return fixed


# Text that has broken servers: NUL (no PostgreSQL text holds it), the limits plus one, a
# right-to-left override, 5,000 digits. Mixed into every plain string of the schema, since random text
# almost never contains them. (Lone surrogates are left to test_limits: schemathesis' own validator
# can't encode them.)
NASTY = [
    "\x00",
    "kunjung\x00",
    "k" * 201,
    "k" * 301,
    "q" * 2001,
    "f" * 5001,
    "g" * 50_001,
    "\u202ekunjung",
    "9" * 5000,
    " ",
]
TEXT = st.one_of(st.text(), st.sampled_from(NASTY), st.tuples(st.text(), st.sampled_from(NASTY)).map("".join))
schemathesis.openapi.format("gotong-text", TEXT)

# The schema documents a task type's payload as any object; the fuzzer needs csqa's fields to reach
# the payload checks rather than stop at "wrong shape".
CSQA_PAYLOAD = {
    "type": "object",
    "properties": {
        "question": {"type": "string"},
        "choices": {"type": "array", "items": {"type": "string"}, "maxItems": 6},
        "answer": {"type": "string"},
    },
    "required": ["question", "choices", "answer"],
}


def fuzz_schema(version_id: int) -> dict[str, Any]:
    """The API's schema with the csqa payload spelled out, a review naming the version under review,
    and JSON only where an operation takes it (the form encodings reach the same serializers; the
    file imports stay multipart)."""
    schema = copy.deepcopy(openapi())
    components = schema["components"]["schemas"]
    components["AuthoringInput"]["properties"]["payload"] = CSQA_PAYLOAD
    components["ReviewInput"]["properties"]["version_id"] = {"type": "integer", "enum": [version_id]}
    for operations in schema["paths"].values():
        for operation in operations.values():
            content = operation.get("requestBody", {}).get("content", {})
            if "application/json" in content:
                operation["requestBody"]["content"] = {"application/json": content["application/json"]}
    _nasty_strings(schema["components"])
    return schema


def _nasty_strings(node: Any) -> None:
    """Every plain string (no format, enum or pattern) of the request bodies drawn from TEXT."""
    if isinstance(node, dict):
        if node.get("type") == "string" and not {"format", "enum", "pattern"} & set(node):
            node["format"] = "gotong-text"
        for child in node.values():
            _nasty_strings(child)
    elif isinstance(node, list):
        for child in node:
            _nasty_strings(child)


def send(client: Client, case) -> Any:
    """The generated request, encoded by `requests` (multipart boundaries included), sent to Django."""
    prepared = requests.Request(**case.as_transport_kwargs(base_url="http://testserver")).prepare()
    body = prepared.body or b""
    if isinstance(body, str):
        body = body.encode()
    content_type = prepared.headers.get("Content-Type", "application/octet-stream")
    return client.generic(prepared.method, prepared.path_url, body, content_type)


@pytest.mark.parametrize("label", write_operations())
def test_no_write_endpoint_answers_5xx(world, label):
    csqa, path_ids, version_id = world
    method, path = label.split(" ", 1)
    operation = schemathesis.openapi.from_dict(fuzz_schema(version_id))[path][method.lower()]
    fixed = path_parameters(path, path_ids)
    strategy = operation.as_strategy(
        generation_mode=GenerationMode.POSITIVE, path_parameters=fixed
    ) | operation.as_strategy(generation_mode=GenerationMode.NEGATIVE, path_parameters=fixed)
    login = Client()
    login.force_login(csqa.admin)
    session_key = login.cookies[django_settings.SESSION_COOKIE_NAME].value

    @settings(
        max_examples=EXAMPLES,
        derandomize=True,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(case=strategy)
    def fuzz(case):
        # A fresh client with the admin's session each time: a response may log out or set cookies.
        client = Client()
        client.cookies[django_settings.SESSION_COOKIE_NAME] = session_key
        with transaction.atomic():
            response = send(client, case)
            transaction.set_rollback(True)
        assert response.status_code < 500, f"{response.status_code} for\n{case.as_curl_command()}"

    fuzz()


# --- the file imports: their bodies are files the schema can only call "binary" ---------------------

FILE_TEXT = st.one_of(st.text(), st.sampled_from([*NASTY, "\ud800", "a\udfffb", '"', ",", "\n", "{"]))
JSON_VALUE = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | FILE_TEXT,
    lambda children: st.lists(children, max_size=5) | st.dictionaries(FILE_TEXT, children, max_size=5),
    max_leaves=20,
)
NAME = FILE_TEXT | JSON_VALUE
CONCEPT_LINE = st.fixed_dictionaries(
    {"category": NAME, "concept": NAME},
    optional={
        "translations": st.dictionaries(st.sampled_from(["id", "su", "xx"]), NAME) | JSON_VALUE,
        "category_translations": st.dictionaries(st.sampled_from(["id", "su", "xx"]), NAME) | JSON_VALUE,
    },
)


@st.composite
def concept_files(draw) -> tuple[str, bytes]:
    if draw(st.booleans()):
        rows = draw(st.lists(st.lists(FILE_TEXT, min_size=1, max_size=4), max_size=8))
        out = io.StringIO()
        csv.writer(out).writerows([["category", "concept", "concept_id"], *rows])
        text = out.getvalue()
        name = "concepts.csv"
    else:
        lines = draw(st.lists(st.one_of(CONCEPT_LINE.map(json.dumps), FILE_TEXT), max_size=8))
        text = "\n".join(lines)
        name = "concepts.jsonl"
    return name, text.encode("utf-8", "surrogatepass")


CODES = st.sampled_from(["W1", "W2", "W3", "w4", " W5 ", ""]) | FILE_TEXT
LETTER = st.sampled_from(["A", "B", "C", "D", "E", "a", " c ", "F", ""]) | JSON_VALUE
# Mostly the shape of a real row, so the rows get past "unusable" and their text reaches the database.
CSQA_RECORD = st.fixed_dictionaries(
    {
        "id": FILE_TEXT | JSON_VALUE,
        "category": NAME,
        "question_concept": NAME,
        "question": NAME,
        "choices": st.fixed_dictionaries(
            {"label": st.just(["A", "B", "C", "D", "E"]), "text": st.lists(NAME, min_size=5, max_size=5)}
        )
        | JSON_VALUE,
        "answer_creator": LETTER,
    },
    optional={
        "answer_majority": LETTER,
        "answers": st.dictionaries(CODES, LETTER, max_size=3) | JSON_VALUE,
        "answers_uncertainty": st.dictionaries(CODES, st.sampled_from(["certain", "uncertain"]) | NAME, max_size=3),
        "question_ambiguity": st.dictionaries(CODES, st.sampled_from(["clear", "ambiguous"]) | NAME, max_size=3),
        "option_ambiguity": st.dictionaries(CODES, st.lists(st.sampled_from(["clear", "ambiguous"]) | NAME)),
        "reason": st.dictionaries(CODES, NAME, max_size=3) | JSON_VALUE,
    },
)


@st.composite
def csqa_files(draw) -> bytes:
    records = draw(st.lists(CSQA_RECORD | JSON_VALUE, max_size=6))
    if draw(st.booleans()):
        text = json.dumps(records)
    else:
        text = "\n".join(
            draw(st.sampled_from([json.dumps(r), r])) if isinstance(r, str) else json.dumps(r) for r in records
        )
    return text.encode("utf-8", "surrogatepass")


def _upload(world, url: str, files) -> None:
    csqa = world[0]
    client = Client()
    client.force_login(csqa.admin)

    @settings(
        max_examples=EXAMPLES, derandomize=True, deadline=None, database=None, suppress_health_check=list(HealthCheck)
    )
    @given(upload=files)
    def fuzz(upload):
        name, data = upload if isinstance(upload, tuple) else ("file.json", upload)
        with transaction.atomic():
            response = client.post(url, {"file": SimpleUploadedFile(name, data)})
            transaction.set_rollback(True)
        assert response.status_code < 500, data[:2000]

    fuzz()


def test_no_concept_file_answers_5xx(world):
    _upload(world, "/api/projects/fuzz/concepts/import/", concept_files())


def test_no_csqa_file_answers_5xx(world):
    _upload(world, "/api/projects/fuzz/imports/", csqa_files())
