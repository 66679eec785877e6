"""Refused actions answer with a clear error and change nothing."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from annotation.models import Assignment, Category, Concept, Item, ItemVersion, Membership
from annotation.services.assignments import assignment_plan_authoring
from annotation.services.items import item_save_draft, item_submit
from annotation.services.projects import membership_add
from qc.models import Review
from qc.services import review_approve
from tests.api.conftest import client_for, db_state
from tests.conftest import VALID_PAYLOAD
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def planned(csqa):
    assignment_plan_authoring(project=csqa.project)
    annotator = csqa.annotators[0]
    assignment = Assignment.objects.filter(user=annotator, concept__name="kunjung").order_by("id").first()
    return csqa, annotator, assignment


def test_approving_a_draft_is_refused(planned):
    csqa, annotator, assignment = planned
    item = item_save_draft(assignment_id=assignment.pk, user=annotator, data=VALID_PAYLOAD)
    client = client_for(csqa.reviewer)
    before = db_state()

    response = client.post(
        f"/api/projects/demo/items/{item.pk}/review/",
        {"version_id": item.current_version_id, "decision": "approve"},
        format="json",
    )

    assert (response.status_code, response.json()) == (
        409,
        {"detail": "Only submitted items can be reviewed; this one is draft.", "code": "illegal_transition"},
    )
    assert db_state() == before


def test_editing_an_approved_item_is_refused(planned):
    csqa, annotator, assignment = planned
    item = item_submit(assignment_id=assignment.pk, user=annotator, data=VALID_PAYLOAD)
    review_approve(item_id=item.pk, version_id=item.current_version_id, reviewer=csqa.reviewer)
    client = client_for(annotator)
    edited = {"payload": {**VALID_PAYLOAD, "answer": "B"}}
    before = db_state()

    draft = client.put(f"/api/projects/demo/assignments/{assignment.pk}/draft/", edited, format="json")
    submit = client.post(f"/api/projects/demo/assignments/{assignment.pk}/submit/", edited, format="json")

    assert (draft.status_code, draft.json()) == (
        409,
        {
            "detail": "This item is approved; it can only be edited as a draft or when a reviewer asks for a revision.",
            "code": "illegal_transition",
        },
    )
    assert (submit.status_code, submit.json()) == (
        409,
        {"detail": "This item is already approved.", "code": "illegal_transition"},
    )
    assert db_state() == before


def test_second_reviewer_deciding_the_same_version_gets_a_conflict(planned):
    csqa, annotator, assignment = planned
    second = UserFactory(username="demo-reviewer2")
    membership_add(project=csqa.project, user=second, role=Membership.Role.REVIEWER)
    item = item_submit(assignment_id=assignment.pk, user=annotator, data=VALID_PAYLOAD)
    body = {"version_id": item.current_version_id, "decision": "approve"}
    first = client_for(csqa.reviewer).post(f"/api/projects/demo/items/{item.pk}/review/", body, format="json")
    assert first.status_code == 201
    client = client_for(second)
    before = db_state()

    late = client.post(
        f"/api/projects/demo/items/{item.pk}/review/",
        {**body, "decision": "revise", "feedback": "Kurang jelas.", "error_types": ["typo"]},
        format="json",
    )

    assert (late.status_code, late.json()) == (
        409,
        {"detail": "Another reviewer has already decided on this version.", "code": "conflict"},
    )
    assert db_state() == before
    assert list(Review.objects.values_list("reviewer__username", "decision")) == [("demo-reviewer", "approve")]


def test_invalid_payload_is_refused_with_field_errors_and_no_version(planned):
    csqa, annotator, assignment = planned
    client = client_for(annotator)
    bad = {"question": "Kapan orang berkunjung?", "choices": ["Pagi", " pagi ", "", "Sore", "Malam"], "answer": ""}
    before = db_state()

    response = client.post(f"/api/projects/demo/assignments/{assignment.pk}/submit/", {"payload": bad}, format="json")

    assert (response.status_code, response.json()) == (
        400,
        {
            "detail": "The item can't be submitted yet.",
            "code": "invalid",
            "errors": {
                "choice_b": ["Option B repeats option A."],
                "choice_c": ["Option C is empty."],
                "answer": ["Mark one option as the correct answer."],
            },
        },
    )
    assert db_state() == before
    assert (Item.objects.count(), ItemVersion.objects.count()) == (0, 0)


def test_invalid_payload_after_a_draft_keeps_the_draft_unchanged(planned):
    csqa, annotator, assignment = planned
    item = item_save_draft(assignment_id=assignment.pk, user=annotator, data=VALID_PAYLOAD)
    client = client_for(annotator)
    before = db_state()

    response = client.post(
        f"/api/projects/demo/assignments/{assignment.pk}/submit/",
        {"payload": {**VALID_PAYLOAD, "answer": "Z"}},
        format="json",
    )

    assert (response.status_code, response.json()["errors"]) == (
        400,
        {"answer": ["Mark one option as the correct answer."]},
    )
    assert db_state() == before
    assert list(item.versions.values_list("number", "payload", "submitted_at")) == [(1, VALID_PAYLOAD, None)]


def test_payload_that_is_not_an_object_is_refused_before_the_service(planned):
    csqa, annotator, assignment = planned
    client = client_for(annotator)
    before = db_state()

    response = client.post(
        f"/api/projects/demo/assignments/{assignment.pk}/submit/", {"payload": ["A", "B"]}, format="json"
    )

    assert (response.status_code, response.json()) == (
        400,
        {
            "detail": "Invalid input.",
            "code": "invalid",
            "errors": {"payload": ['Expected a dictionary of items but got type "list".']},
        },
    )
    assert db_state() == before


def test_payload_of_the_wrong_shape_is_refused_with_field_errors(planned):
    csqa, annotator, assignment = planned
    client = client_for(annotator)
    before = db_state()

    draft = client.put(
        f"/api/projects/demo/assignments/{assignment.pk}/draft/",
        {"payload": {"question": ["Kapan?"], "choices": 5, "answer": "A"}},
        format="json",
    )
    submit = client.post(
        f"/api/projects/demo/assignments/{assignment.pk}/submit/",
        {"payload": {**VALID_PAYLOAD, "choices": [*VALID_PAYLOAD["choices"], "Keenam"]}},
        format="json",
    )

    assert (draft.status_code, draft.json()) == (
        400,
        {
            "detail": "The item has the wrong shape.",
            "code": "invalid",
            "errors": {"question": ["Must be text."], "choices": ["Must be a list of 5 texts."]},
        },
    )
    assert (submit.status_code, submit.json()["errors"]) == (400, {"choices": ["Give at most 5 options."]})
    assert db_state() == before


def test_revision_request_without_feedback_or_error_type_is_refused(planned):
    csqa, annotator, assignment = planned
    item = item_submit(assignment_id=assignment.pk, user=annotator, data=VALID_PAYLOAD)
    client = client_for(csqa.reviewer)
    before = db_state()

    response = client.post(
        f"/api/projects/demo/items/{item.pk}/review/",
        {"version_id": item.current_version_id, "decision": "revise", "feedback": " "},
        format="json",
    )

    assert (response.status_code, response.json()) == (
        400,
        {
            "detail": "A revision request needs feedback and at least one error type.",
            "code": "invalid",
            "errors": {
                "feedback": ["Tell the author what to change."],
                "error_types": ["Choose at least one error type."],
            },
        },
    )
    assert db_state() == before


BAD_CSV = "category,concept\nculinary,rendang\nculinary,\nplace,pasar\nculinary,Rendang\n,soto\n"


def test_import_with_bad_lines_reports_them_and_imports_nothing(csqa):
    client = client_for(csqa.admin)
    before = db_state()

    response = client.post(
        "/api/projects/demo/concepts/import/",
        {"file": SimpleUploadedFile("concepts.csv", BAD_CSV.encode())},
        format="multipart",
    )

    assert (response.status_code, response.json()) == (
        400,
        {
            "detail": "Nothing was imported: 3 problem(s) in the file.",
            "code": "invalid",
            "errors": {
                "file": [
                    "Line 3: the concept is empty.",
                    "Line 6: the category is empty.",
                    "Line 5: “Rendang” in “culinary” repeats line 2.",
                ]
            },
        },
    )
    assert db_state() == before


def test_import_without_a_file_is_refused(csqa):
    response = client_for(csqa.admin).post("/api/projects/demo/concepts/import/", {}, format="multipart")

    assert (response.status_code, response.json()) == (
        400,
        {"detail": "Invalid input.", "code": "invalid", "errors": {"file": ["No file was submitted."]}},
    )


def test_importing_the_same_file_twice_creates_nothing_new(csqa):
    client = client_for(csqa.admin)
    jsonl = (
        b'{"category": "kuliner", "concept": "rendang", "translations": {"id": "rendang"}}\n'
        b'{"category": "tempat", "concept": "alun-alun"}\n'
    )

    def upload():
        return client.post(
            "/api/projects/demo/concepts/import/",
            {"file": SimpleUploadedFile("c.jsonl", jsonl)},
            format="multipart",
        )

    first = upload()
    after_first = db_state()
    second = upload()

    assert (first.status_code, first.json()) == (
        201,
        {"rows": 2, "categories_created": 2, "concepts_created": 2, "concepts_updated": 0},
    )
    assert (second.status_code, second.json()) == (
        201,
        {"rows": 2, "categories_created": 0, "concepts_created": 0, "concepts_updated": 0},
    )
    assert db_state() == after_first
    assert (
        Category.objects.filter(project=csqa.project).count(),
        Concept.objects.filter(project=csqa.project).count(),
    ) == (
        4,
        8,
    )


def test_project_creation_is_for_staff_only(csqa):
    client = client_for(csqa.admin)
    before = db_state()

    response = client.post(
        "/api/projects/",
        {"name": "Mine", "task_type": "csqa", "languages": [{"code": "id", "name": "Indonesian"}]},
        format="json",
    )

    assert (response.status_code, response.json()) == (
        403,
        {"detail": "Only staff can create projects.", "code": "not_allowed"},
    )
    assert db_state() == before


def test_a_project_admin_creating_an_account_is_refused(csqa):
    client = client_for(csqa.admin)
    before = db_state()

    response = client.post(
        "/api/projects/demo/members/",
        {"username": "nobody", "role": "annotator", "password": "Bandung-Hujan-2026"},
        format="json",
    )

    assert (response.status_code, response.json()) == (
        403,
        {
            "detail": "Only a platform admin can create accounts; invite an existing user by name instead.",
            "code": "not_allowed",
            "errors": {"password": ["Leave empty: project admins invite people by user name."]},
        },
    )
    assert db_state() == before
