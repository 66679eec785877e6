"""Text limits, request size and JSON that can't be stored: the API, the pages and the services refuse
the same things, with a 400 (or 413) that names the field, and nothing changes."""

import json
from urllib.parse import parse_qs, urlsplit

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from annotation import limits
from annotation.errors import InvalidInput
from annotation.models import Item
from annotation.services.assignments import assignment_plan_authoring
from annotation.services.items import item_save_draft, item_submit
from qc.services import review_request_revision
from tests.annotation.views.helpers import author_post, first_assignment, submitted_item
from tests.api.conftest import db_state
from tests.conftest import VALID_PAYLOAD

pytestmark = pytest.mark.django_db

TOO_LONG_QUESTION = "Use at most 2000 characters (this has 2001)."


def session_client(user) -> APIClient:
    client = APIClient()
    client.force_login(user)
    return client


@pytest.fixture
def planned(csqa):
    assignment_plan_authoring(project=csqa.project)
    annotator = csqa.annotators[0]
    return csqa, annotator, first_assignment(csqa.project, annotator)


def question_of(length: int) -> str:
    start = "Kapan orang kunjung ke rumah saudara? "
    return start + "x" * (length - len(start))


def test_a_30_mb_question_is_refused_unread_with_413(planned):
    csqa, annotator, assignment = planned
    body = json.dumps({"payload": {**VALID_PAYLOAD, "question": question_of(30 * 1024 * 1024)}})
    api = session_client(annotator)
    before = db_state()

    response = api.put(f"/api/projects/demo/assignments/{assignment.pk}/draft/", body, content_type="application/json")

    assert (response.status_code, response.json()) == (
        413,
        {"detail": "The request is larger than 2 MB.", "code": "request_too_large"},
    )
    assert db_state() == before


def test_a_30_mb_question_on_the_page_gets_the_413_page(planned, client):
    csqa, annotator, assignment = planned
    client.force_login(annotator)
    before = db_state()

    response = client.post(
        reverse("author_item", args=["demo", assignment.pk]),
        author_post({**VALID_PAYLOAD, "question": question_of(30 * 1024 * 1024)}),
    )

    assert response.status_code == 413
    html = response.content.decode()
    assert 'id="request-too-large">The request is larger than 2 MB. Nothing was saved.</p>' in html
    assert db_state() == before


def test_a_question_at_the_limit_is_saved(planned):
    csqa, annotator, assignment = planned

    response = session_client(annotator).put(
        f"/api/projects/demo/assignments/{assignment.pk}/draft/",
        {"payload": {**VALID_PAYLOAD, "question": question_of(limits.QUESTION)}},
        format="json",
    )

    assert response.status_code == 200
    assert len(response.json()["payload"]["question"]) == limits.QUESTION


def test_one_character_over_the_question_limit_is_refused_alike_by_api_page_and_service(planned, client):
    csqa, annotator, assignment = planned
    payload = {**VALID_PAYLOAD, "question": question_of(limits.QUESTION + 1)}
    client.force_login(annotator)
    api_client = session_client(annotator)
    before = db_state()

    api = api_client.post(
        f"/api/projects/demo/assignments/{assignment.pk}/submit/", {"payload": payload}, format="json"
    )
    page = client.post(reverse("author_item", args=["demo", assignment.pk]), author_post(payload))
    with pytest.raises(InvalidInput) as refused:
        item_submit(assignment_id=assignment.pk, user=annotator, data=payload)

    assert (api.status_code, api.json()) == (
        400,
        {
            "detail": "The item can't be saved: check the question.",
            "code": "invalid",
            "errors": {"question": [TOO_LONG_QUESTION]},
        },
    )
    assert refused.value.field_errors == {"question": [TOO_LONG_QUESTION]}
    assert page.status_code == 400
    assert page.context["form"].errors == {"question": [TOO_LONG_QUESTION]}
    assert db_state() == before


@pytest.mark.parametrize(
    ("body", "field", "message"),
    [
        (
            {"payload": {**VALID_PAYLOAD, "choices": ["x" * 501, "b", "c", "d", "e"]}},
            "choice_a",
            "Use at most 500 characters (this has 501).",
        ),
        (
            {"payload": VALID_PAYLOAD, "justification": "j" * 2001},
            "justification",
            "Use at most 2000 characters (this has 2001).",
        ),
        ({"payload": {**VALID_PAYLOAD, "answer": "A" * 11}}, "answer", "Use at most 10 characters (this has 11)."),
    ],
)
def test_authoring_text_over_its_limit_is_refused_by_the_draft_api(planned, body, field, message):
    csqa, annotator, assignment = planned
    api = session_client(annotator)
    before = db_state()

    response = api.put(f"/api/projects/demo/assignments/{assignment.pk}/draft/", body, format="json")

    assert (response.status_code, response.json()["errors"]) == (400, {field: [message]})
    assert db_state() == before


def test_feedback_over_its_limit_is_refused_alike_by_api_page_and_service(csqa, client):
    item = submitted_item(csqa, VALID_PAYLOAD)
    feedback = "f" * (limits.FEEDBACK + 1)
    message = "Use at most 5000 characters (this has 5001)."
    client.force_login(csqa.reviewer)
    api_client = session_client(csqa.reviewer)
    before = db_state()

    api = api_client.post(
        f"/api/projects/demo/items/{item.pk}/review/",
        {"version_id": item.current_version_id, "decision": "revise", "feedback": feedback, "error_types": ["typo"]},
        format="json",
    )
    page = client.post(
        reverse("review_item", args=["demo", item.pk]),
        {"version_id": item.current_version_id, "decision": "revise", "feedback": feedback, "error_types": ["typo"]},
    )
    with pytest.raises(InvalidInput) as refused:
        review_request_revision(
            item_id=item.pk,
            version_id=item.current_version_id,
            reviewer=csqa.reviewer,
            feedback=feedback,
            error_type_codes=["typo"],
        )

    assert (api.status_code, api.json()) == (
        400,
        {"detail": f"Feedback: {message}", "code": "invalid", "errors": {"feedback": [message]}},
    )
    assert refused.value.field_errors == {"feedback": [message]}
    assert page.status_code == 400
    assert page.context["form"].errors == {"feedback": [message]}
    assert db_state() == before


# --- JSON a database can't store -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "detail"),
    [
        (
            '{"payload": {"question": "Kapan kunjung\\u0000?", "choices": ["a", "b", "c", "d", "e"], "answer": "A"}}',
            "JSON parse error - payload.question: Remove the NUL character (\\u0000): text can't contain it.",
        ),
        (
            '{"payload": {"question": "Kapan kunjung?", "choices": ["a", "\\ud800", "c", "d", "e"], "answer": "A"}}',
            "JSON parse error - payload.choices[1]: Remove the unpaired surrogate (\\ud800): it is not a character.",
        ),
        ('{"payload": {"question\\u0000": "x"}}', "JSON parse error - payload.question\\u0000: " + limits.NUL),
        ("[" * 100_000 + "]" * 100_000, "JSON parse error - nested too deeply."),
        ('{"payload": ' + '{"a": ' * 40 + "1" + "}" * 40 + "}", None),
        ('{"payload": {"question": 1' + "0" * 5000 + "}}", None),
    ],
    ids=["nul", "lone-surrogate", "nul-in-a-key", "nested-100000", "nested-41", "huge-integer"],
)
def test_json_that_cannot_be_stored_is_a_400_naming_the_field(planned, raw, detail):
    csqa, annotator, assignment = planned
    api = session_client(annotator)
    before = db_state()

    response = api.put(f"/api/projects/demo/assignments/{assignment.pk}/draft/", raw, content_type="application/json")

    body = response.json()
    assert (response.status_code, body["code"]) == (400, "parse_error")
    assert body["detail"] == detail if detail else body["detail"].startswith("JSON parse error - ")
    assert db_state() == before


def test_nul_and_lone_surrogates_are_refused_by_the_services(planned):
    csqa, annotator, assignment = planned
    before = db_state()

    with pytest.raises(InvalidInput) as nul:
        item_save_draft(assignment_id=assignment.pk, user=annotator, data={**VALID_PAYLOAD, "question": "a\x00b"})
    with pytest.raises(InvalidInput) as surrogate:
        item_save_draft(assignment_id=assignment.pk, user=annotator, data=VALID_PAYLOAD, justification="\udfff")

    assert nul.value.field_errors == {"question": [limits.NUL]}
    assert surrogate.value.field_errors == {
        "justification": ["Remove the unpaired surrogate (\\udfff): it is not a character."]
    }
    assert db_state() == before


def test_nul_in_a_page_form_is_refused_by_the_form(planned, client):
    csqa, annotator, assignment = planned
    client.force_login(annotator)
    before = db_state()

    response = client.post(
        reverse("author_item", args=["demo", assignment.pk]), author_post({**VALID_PAYLOAD, "question": "a\x00b"})
    )

    assert response.status_code == 400
    assert response.context["form"].errors == {"question": ["Null characters are not allowed."]}
    assert db_state() == before


def test_nul_in_a_form_encoded_api_body_is_refused_by_the_serializer(csqa):
    item = submitted_item(csqa, VALID_PAYLOAD)
    api = session_client(csqa.reviewer)
    before = db_state()

    response = api.post(
        f"/api/projects/demo/items/{item.pk}/review/",
        {"version_id": item.current_version_id, "decision": "reject", "feedback": "bad\x00"},
    )

    assert (response.status_code, response.json()["errors"]) == (
        400,
        {"feedback": ["Null characters are not allowed."]},
    )
    assert db_state() == before


# --- pages of lists --------------------------------------------------------------------------------


def make_items(project, count: int) -> list[int]:
    items = Item.objects.bulk_create(Item(project=project, task_type="csqa") for _ in range(count))
    return [item.pk for item in items]


def walk(client, url: str, **params) -> tuple[list[int], list[int]]:
    """Every id on every page following `next`, and each page's size."""
    ids, sizes = [], []
    page = client.get(url, params).json()
    while True:
        ids += [row["id"] for row in page["results"]]
        sizes.append(len(page["results"]))
        if not page["next"]:
            return ids, sizes
        page = client.get(page["next"]).json()


def test_a_page_never_has_more_than_500_rows(csqa):
    make_items(csqa.project, 600)
    client = session_client(csqa.admin)

    huge = client.get("/api/projects/demo/items/", {"page_size": 1_000_000}).json()
    old_style = client.get("/api/projects/demo/items/", {"limit": 1_000_000}).json()

    assert (len(huge["results"]), len(old_style["results"])) == (500, 100)
    assert set(huge) == {"next", "previous", "results"}


def test_walking_the_cursor_returns_every_item_exactly_once(csqa):
    expected = make_items(csqa.project, 1_100)
    client = session_client(csqa.admin)

    ids, sizes = walk(client, "/api/projects/demo/items/", page_size=500)
    default_ids, default_sizes = walk(client, "/api/projects/demo/items/")

    assert (ids, sizes) == (sorted(expected), [500, 500, 100])
    assert (default_ids, default_sizes) == (sorted(expected), [100] * 11)


def test_the_review_queue_pages_in_hand_out_order_through_ties(csqa):
    item_ids = [submitted_item(csqa, {**VALID_PAYLOAD, "question": f"Kapan kunjung {n}?"}).pk for n in range(4)]
    # Equal timestamps: only the id breaks the tie, and a page boundary falls between them.
    Item.objects.filter(pk__in=item_ids[1:3]).update(updated_at=Item.objects.get(pk=item_ids[0]).updated_at)
    Item.objects.filter(pk=item_ids[3]).update(reviewer=csqa.reviewer)  # claimed: first in the queue
    client = session_client(csqa.reviewer)

    ids, sizes = walk(client, "/api/projects/demo/reviews/queue/", page_size=2)
    second = client.get(client.get("/api/projects/demo/reviews/queue/", {"page_size": 2}).json()["next"]).json()
    back = client.get(second["previous"]).json()

    assert (ids, sizes) == ([item_ids[3], *item_ids[:3]], [2, 2])
    assert [row["id"] for row in second["results"]] == item_ids[1:3]
    assert ([row["id"] for row in back["results"]], back["previous"]) == ([item_ids[3], item_ids[0]], None)


def test_every_list_endpoint_pages_with_a_cursor(csqa):
    for n in range(2):
        submitted_item(csqa, {**VALID_PAYLOAD, "question": f"Kapan kunjung {n}?"})
    lists = [
        (csqa.admin, "/api/projects/", 1),
        (csqa.admin, "/api/projects/demo/members/", 5),
        (csqa.admin, "/api/projects/demo/categories/", 2),
        (csqa.admin, "/api/projects/demo/concepts/", 6),
        (csqa.admin, "/api/projects/demo/items/", 2),
        (csqa.admin, "/api/projects/demo/error-types/", 11),
        (csqa.annotators[0], "/api/projects/demo/assignments/", 4),
        (csqa.reviewer, "/api/projects/demo/reviews/queue/", 2),
    ]
    for user, url, rows in lists:
        client = session_client(user)
        whole = client.get(url, {"page_size": 500}).json()["results"]

        ids, sizes = walk(client, url, page_size=1)

        assert (ids, sizes) == ([row["id"] for row in whole], [1] * rows), url


@pytest.mark.parametrize(
    ("params", "errors"),
    [
        ({"page_size": 0}, {"page_size": ["A whole number from 1 to 500."]}),
        ({"page_size": "many"}, {"page_size": ["A whole number from 1 to 500."]}),
        ({"cursor": "made-up"}, {"cursor": ["This cursor is not valid here; start again from the first page."]}),
    ],
)
def test_a_bad_page_size_or_cursor_is_a_400(csqa, params, errors):
    response = session_client(csqa.admin).get("/api/projects/demo/items/", params)

    assert (response.status_code, response.json()) == (
        400,
        {"detail": "Invalid input.", "code": "invalid", "errors": errors},
    )


def test_a_cursor_of_another_list_is_refused(csqa):
    make_items(csqa.project, 3)
    client = session_client(csqa.admin)
    next_page = client.get("/api/projects/demo/items/", {"page_size": 1}).json()["next"]
    cursor = parse_qs(urlsplit(next_page).query)["cursor"][0]

    response = client.get("/api/projects/demo/concepts/", {"cursor": cursor})

    assert (response.status_code, response.json()["errors"]) == (
        400,
        {"cursor": ["This cursor is not valid here; start again from the first page."]},
    )


def test_the_schema_documents_the_cursor_and_the_page_size_limit():
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)

    parameters = {p["name"]: p for p in schema["paths"]["/api/projects/{slug}/items/"]["get"]["parameters"]}
    assert parameters["page_size"]["schema"] == {"type": "integer", "minimum": 1, "maximum": 500}
    assert parameters["cursor"]["schema"] == {"type": "string"}
    assert "limit" not in parameters and "offset" not in parameters
