"""Cross-answering, reports, exports and imports over the API, and the cross-project permission matrix
of every cross-answering endpoint and page."""

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from annotation.models import Assignment, Item, Judgment
from annotation.services.judging import judging_plan
from qc.models import ExportRun
from tests.annotation.task_types.csqa.world import (
    CHOICES,
    QUESTIONS,
    add_answers,
    api_requests,
    call,
    id_csqa_file,
    make_world,
    page_requests,
)
from tests.api.conftest import client_for, db_state
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

BASE = "/api/projects/xa"
CLEAR = [False] * 5


@pytest.fixture
def planned():
    world = make_world()
    judging_plan(project=world.project)
    return world


@pytest.fixture
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    return tmp_path


def _assignment(world, user, item_index):
    return Assignment.objects.get(user=user, kind="answer", target_item=world.items[item_index])


# --- planning ------------------------------------------------------------------------------------


def test_admin_plans_cross_answering(planned):
    world = make_world(slug="fresh")
    client = client_for(world.admin)

    first = client.post("/api/projects/fresh/plans/judging/", {}, format="json")
    again = client.post("/api/projects/fresh/plans/judging/", {"seed": 7}, format="json")

    assert (first.status_code, first.json()) == (
        200,
        {"created": 12, "reactivated": 0, "moved": 0, "items": 4, "workers": 4},
    )
    assert (again.status_code, again.json()) == (
        200,
        {"created": 0, "reactivated": 0, "moved": 0, "items": 4, "workers": 4},
    )
    assert Assignment.objects.filter(project=world.project, kind="answer").count() == 12


@pytest.mark.parametrize("who", ["reviewer", "annotator"])
def test_only_admins_plan(planned, who):
    client = client_for(planned.reviewer if who == "reviewer" else planned.people[0])
    before = db_state()

    response = client.post(f"{BASE}/plans/judging/", {}, format="json")

    assert (response.status_code, response.json()["code"]) == (403, "not_allowed")
    assert db_state() == before


# --- answering -----------------------------------------------------------------------------------


def test_next_gives_the_question_without_any_answer_and_resumes_it(planned):
    w1 = planned.people[0]
    client = client_for(w1)
    expected = Assignment.objects.filter(user=w1, kind="answer").order_by("position", "id").first()
    index = planned.items.index(Item.objects.get(pk=expected.target_item_id))

    first = client.post(f"{BASE}/judgments/next/", {}, format="json")
    again = client.post(f"{BASE}/judgments/next/", {}, format="json")

    body = first.json()
    assert first.status_code == 200
    assert body.pop("lease_expires_at") is not None
    assert body == {
        "id": expected.pk,
        "status": "active",
        "item": {
            "id": expected.target_item_id,
            "category": ["culinary", "family"][index % 2],
            "question": QUESTIONS[index],
            "choices": CHOICES[index],
        },
        "my_answer": None,
        "progress": {"done": 0, "total": 3},
    }
    assert again.json()["id"] == expected.pk
    assert Assignment.objects.filter(user=w1, status="active").count() == 1


def test_answer_is_recorded_and_next_moves_on_until_204(planned):
    w2 = planned.people[1]
    client = client_for(w2)
    answered = []
    while (task := client.post(f"{BASE}/judgments/next/", {}, format="json")).status_code == 200:
        response = client.post(
            f"{BASE}/judgments/{task.json()['id']}/",
            {
                "answer": "c",
                "uncertain": True,
                "option_ambiguous": [False, True, False, False, False],
                "reason": " mirip ",
            },
            format="json",
        )
        assert response.status_code == 200
        answered.append(response.json())

    assert task.status_code == 204
    assert len(answered) == 3
    judgment = Judgment.objects.get(pk=answered[0]["id"])
    assert answered[0] == {
        "id": judgment.pk,
        "item_id": judgment.item_id,
        "assignment_id": judgment.assignment_id,
        "answer": "C",
        "uncertain": True,
        "question_ambiguous": False,
        "option_ambiguous": [False, True, False, False, False],
        "reason": "mirip",
        "created_at": answered[0]["created_at"],
        "updated_at": answered[0]["updated_at"],
    }
    assert set(Assignment.objects.filter(user=w2, kind="answer").values_list("status", flat=True)) == {"done"}


def test_my_answer_is_shown_back_never_anyone_elses(planned):
    w1, w2, w3 = planned.people[:3]
    mine = _assignment(planned, w1, 2)
    client_for(w2).post(
        f"{BASE}/judgments/{_assignment(planned, w2, 2).pk}/", {"answer": "E", "reason": "W2!"}, format="json"
    )
    client = client_for(w1)

    before = client.get(f"{BASE}/judgments/{mine.pk}/").json()
    client.post(f"{BASE}/judgments/{mine.pk}/", {"answer": "B", "question_ambiguous": True}, format="json")
    after = client.get(f"{BASE}/judgments/{mine.pk}/").json()

    assert before["my_answer"] is None
    assert after["my_answer"] == {
        "answer": "B",
        "uncertain": False,
        "question_ambiguous": True,
        "option_ambiguous": CLEAR,
        "reason": "",
    }
    text = json.dumps([before, after])
    assert '"E"' not in text and "W2!" not in text and "answer_creator" not in text
    assert set(after["item"]) == {"id", "category", "question", "choices"}


def test_invalid_answers_are_refused_and_change_nothing(planned):
    w1 = planned.people[0]
    url = f"{BASE}/judgments/{_assignment(planned, w1, 1).pk}/"
    client = client_for(w1)
    before = db_state()

    answers = [
        client.post(url, {"answer": "Z"}, format="json"),
        client.post(url, {"answer": "A", "option_ambiguous": [True, False]}, format="json"),
        client.post(url, {"uncertain": "maybe"}, format="json"),
    ]

    refused = "The answer can't be saved yet."
    assert [(r.status_code, r.json()["detail"], r.json()["errors"]) for r in answers] == [
        (400, refused, {"answer": ["Choose one of the options A-E."]}),
        (400, refused, {"option_ambiguous": ["Give one true/false per option (5)."]}),
        (400, "Invalid input.", {"answer": ["This field is required."], "uncertain": ["Must be a valid boolean."]}),
    ]
    assert db_state() == before


def test_another_users_assignment_is_404_and_own_item_is_refused(planned):
    w1, w2 = planned.people[:2]
    own = Assignment.objects.create(
        project=planned.project, user=w1, kind="answer", target_item=planned.items[0], target_author=None
    )
    client = client_for(w1)
    before = db_state()

    theirs = _assignment(planned, w2, 0).pk
    answers = [
        client.get(f"{BASE}/judgments/{theirs}/"),
        client.post(f"{BASE}/judgments/{theirs}/", {"answer": "A"}, format="json"),
        client.post(f"{BASE}/judgments/{own.pk}/", {"answer": "A"}, format="json"),
    ]

    assert [(r.status_code, r.json()) for r in answers] == [
        (404, {"detail": "No such assignment.", "code": "not_found"}),
        (404, {"detail": "No such assignment.", "code": "not_found"}),
        (403, {"detail": "You can't answer your own item.", "code": "not_allowed"}),
    ]
    assert db_state() == before


# --- reports, exports, imports -------------------------------------------------------------------


def test_report_json_for_reviewers(planned):
    add_answers(planned)
    client = client_for(planned.reviewer)

    response = client.get(f"{BASE}/reports/csqa/")

    report = response.json()
    assert response.status_code == 200
    assert {k: report[k] for k in ("project", "items", "judgments", "excluded", "majority_equals_author")} == {
        "project": "xa",
        "items": 4,
        "judgments": 12,
        "excluded": 1,
        "majority_equals_author": 3,
    }
    assert report["majority_equals_author_share"] == 0.75
    assert report["alpha_nominal"] == pytest.approx(6 / 17)  # 1 - (6/12) / (102/132)
    assert report["conflicts"] == {
        "annotators": ["W1", "W2", "W3", "W4"],
        "counts": [[0, 0, 1, 0], [0, 0, 1, 0], [1, 0, 0, 0], [0, 1, 0, 0]],
    }
    assert report["conflicts_by_region"] == {
        "regions": ["Jawa Barat", "Bali", "Aceh"],
        "counts": [[0, 2, 0], [1, 0, 0], [1, 0, 0]],
    }
    assert [(c["category"], c["items"], c["excluded"]) for c in report["categories"]] == [
        ("culinary", 2, 0),
        ("family", 2, 1),
    ]
    assert [
        (a["code"], a["uncertain"], a["option_flags_given"], a["question_flags_received"]) for a in report["annotators"]
    ] == [
        ("W1", 0, 0, 0),
        ("W2", 0, 0, 0),
        ("W3", 0, 0, 0),
        ("W4", 1, 1, 2),
    ]
    assert client_for(planned.people[0]).get(f"{BASE}/reports/csqa/").status_code == 403


def test_export_is_accepted_then_runs_after_commit_and_its_files_download(
    planned, media, django_capture_on_commit_callbacks
):
    add_answers(planned)
    client = client_for(planned.admin)

    with django_capture_on_commit_callbacks(execute=True):
        accepted = client.post(f"{BASE}/exports/", {"format": "csv"}, format="json")
    run_id = accepted.json()["id"]
    detail = client.get(f"{BASE}/exports/{run_id}/")
    listed = client.get(f"{BASE}/exports/")
    download = client.get(detail.json()["downloads"]["test.csv"])

    assert accepted.status_code == 202
    assert (accepted.json()["format"], accepted.json()["status"]) == ("csv", "pending")
    body = detail.json()
    assert (body["status"], body["progress"], body["total"], body["error"], body["created_by"]) == (
        "done",
        3,
        3,
        "",
        "xa-admin",
    )
    assert body["files"] == {"test": "test.csv", "readme": "README.md"}
    assert body["downloads"] == {
        "README.md": f"{BASE}/exports/{run_id}/files/README.md",
        "test.csv": f"{BASE}/exports/{run_id}/files/test.csv",
    }
    assert [r["id"] for r in listed.json()] == [run_id]
    assert download.status_code == 200
    lines = b"".join(download.streaming_content).decode().splitlines()
    assert lines[0] == (
        "id,category,question_concept,question,choices,answer_creator,answer_majority,answers,"
        "answers_uncertainty,question_ambiguity,option_ambiguity,reason,language"
    )
    assert len(lines) == 4


def test_export_refusals(planned, media):
    admin, annotator = client_for(planned.admin), client_for(planned.people[0])
    before = db_state()

    answers = [
        admin.post(f"{BASE}/exports/", {"format": "xlsx"}, format="json"),
        annotator.post(f"{BASE}/exports/", {"format": "csv"}, format="json"),
        annotator.get(f"{BASE}/exports/"),
        admin.get(f"{BASE}/exports/999999/"),
    ]

    assert [(r.status_code, r.json()["code"]) for r in answers] == [
        (400, "invalid"),
        (403, "not_allowed"),
        (403, "not_allowed"),
        (404, "not_found"),
    ]
    assert db_state() == before


def test_import_into_this_project(planned):
    client = client_for(planned.admin)
    upload = SimpleUploadedFile("ind.json", id_csqa_file(), content_type="application/json")

    response = client.post(f"{BASE}/imports/", {"file": upload, "annotator_regions": "W1=Sunda"}, format="multipart")

    body = response.json()
    assert response.status_code == 201
    assert {k: body[k] for k in ("project", "rows", "items_created", "judgments_created", "rows_skipped")} == {
        "project": "xa",
        "rows": 4,
        "items_created": 3,
        "judgments_created": 6,
        "rows_skipped": [4],
    }
    assert body["issue_rows"] == {"missing_id": [4], "normalised_value": [1]}
    assert Item.objects.filter(project=planned.project, source="import").count() == 3


def test_unreadable_import_is_refused_and_changes_nothing(planned):
    client = client_for(planned.admin)
    before = db_state()

    response = client.post(f"{BASE}/imports/", {"file": SimpleUploadedFile("x.json", b"[1, 2")}, format="multipart")

    assert (response.status_code, response.json()["code"]) == (400, "invalid")
    assert "file" in response.json()["errors"]
    assert db_state() == before


# --- cross-project matrix ------------------------------------------------------------------------


@pytest.fixture
def two_projects(media, django_capture_on_commit_callbacks):
    world = make_world()
    judging_plan(project=world.project)
    add_answers(world)
    other = make_world(slug="other")
    judging_plan(project=other.project)
    with django_capture_on_commit_callbacks(execute=True):
        client_for(world.admin).post(f"{BASE}/exports/", {"format": "jsonl"}, format="json")
    return world, other, ExportRun.objects.get(project=world.project)


@pytest.mark.parametrize("role", ["admin", "reviewer", "annotator"])
def test_member_of_another_project_gets_404_everywhere_and_changes_nothing(two_projects, role):
    world, other, run = two_projects
    outsider = {"admin": other.admin, "reviewer": other.reviewer, "annotator": other.people[0]}[role]
    assignment = Assignment.objects.filter(project=world.project, kind="answer").first()
    ids = {"assignment_id": assignment.pk, "run_id": run.pk}
    api, pages = client_for(outsider), Client()
    pages.force_login(outsider)
    before = db_state()

    api_answers = [(p, call(api, m, p, b)) for m, p, b in api_requests("xa", **ids)]
    page_answers = [(p, call(pages, m, p, b)) for m, p, b in page_requests("xa", **ids)]
    # The outsider's own project in the address, this project's ids: still 404.
    aid, rid = assignment.pk, run.pk
    own_answers = [
        (p, call(api, m, p, b))
        for m, p, b in [
            ("get", f"/api/projects/other/judgments/{aid}/", None),
            ("post", f"/api/projects/other/judgments/{aid}/", {"answer": "A"}),
            ("get", f"/api/projects/other/exports/{rid}/", None),
            ("get", f"/api/projects/other/exports/{rid}/files/test.jsonl", None),
        ]
    ] + [
        (p, call(pages, m, p, b))
        for m, p, b in [
            ("get", reverse("answer_item", args=["other", aid]), None),
            ("post", reverse("answer_item", args=["other", aid]), {"answer": "A"}),
            ("get", reverse("export_download", args=["other", rid, "test.jsonl"]), None),
        ]
    ]

    assert len(api_answers) == 10 and len(page_answers) == 13 and len(own_answers) == 7
    assert [(p, r.status_code) for p, r in api_answers + page_answers] == [
        (p, 404) for p, _ in api_answers + page_answers
    ]
    # In their own project only the admin passes the role check of exports; then the id is not found.
    exports_status = 404 if role == "admin" else 403
    assert [r.status_code for _, r in own_answers] == [404, 404, exports_status, exports_status, 404, 404, 404]
    assert {r.json()["code"] for _, r in api_answers} == {"not_found"}
    assert db_state() == before


def test_anonymous_callers_are_told_to_authenticate_or_sent_to_log_in(two_projects):
    world, _, run = two_projects
    assignment = Assignment.objects.filter(project=world.project, kind="answer").first()
    ids = {"assignment_id": assignment.pk, "run_id": run.pk}
    api = client_for(world.admin)
    api.credentials()
    before = db_state()

    api_answers = [call(api, m, p, b) for m, p, b in api_requests("xa", **ids)]
    page_answers = [call(Client(), m, p, b) for m, p, b in page_requests("xa", **ids)]

    assert {(r.status_code, r.json()["code"]) for r in api_answers} == {(401, "not_authenticated")}
    assert {r.status_code for r in page_answers} == {302}
    assert all(r.url.startswith("/accounts/login/") for r in page_answers)
    assert db_state() == before


def test_schema_lists_the_endpoints_of_issue_3():
    schema = client_for(UserFactory()).get("/api/schema/", {"format": "json"}).json()  # signed-in users only

    served = {path: set(ops) - {"parameters"} for path, ops in schema["paths"].items()}

    assert {path: served.get(path) for path in ISSUE_3_ENDPOINTS} == ISSUE_3_ENDPOINTS
    answer = schema["components"]["schemas"]["MultipleChoiceItem"]
    assert set(answer["properties"]) == {"id", "category", "question", "choices"}


ISSUE_3_ENDPOINTS = {
    "/api/projects/{slug}/plans/judging/": {"post"},
    "/api/projects/{slug}/judgments/next/": {"post"},
    "/api/projects/{slug}/judgments/{assignment_id}/": {"get", "post"},
    "/api/projects/{slug}/reports/csqa/": {"get"},
    "/api/projects/{slug}/exports/": {"get", "post"},
    "/api/projects/{slug}/exports/{run_id}/": {"get"},
    "/api/projects/{slug}/exports/{run_id}/files/{name}": {"get"},
    "/api/projects/{slug}/imports/": {"post"},
}
