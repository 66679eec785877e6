"""The whole authoring + QC loop, over the API only, with token authentication."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from tests.conftest import PASSWORD
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

CONCEPTS_CSV = "category,concept\nculinary,rendang\nculinary,soto\nplace,alun-alun\nplace,pasar\n"


def _token(client, username, password=PASSWORD):
    response = client.post("/api/auth/token/", {"username": username, "password": password}, format="json")
    assert response.status_code == 200
    return response.json()["token"]


def _as(client_class, token):
    client = client_class()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client


def _payload(concept, question_suffix=""):
    return {
        "question": f"Di mana orang biasanya membeli {concept}{question_suffix}?",
        "choices": ["Di warung", "Di bank", "Di sekolah", "Di kantor pos", "Di bandara"],
        "answer": "A",
    }


def test_whole_loop_over_the_api(api_client):
    from rest_framework.test import APIClient

    UserFactory(username="boss", is_staff=True)
    admin = _as(APIClient, _token(api_client, "boss"))

    # An admin sets the project up.
    created = admin.post(
        "/api/projects/",
        {
            "name": "Sundanese CSQA",
            "slug": "su-csqa",
            "task_type": "csqa",
            "languages": [{"code": "su", "name": "Sundanese"}, {"code": "id", "name": "Indonesian"}],
            "guidelines": "# Tulis soal",
            "authors_per_concept": 2,
            "answerers_per_item": 5,
            "ambiguity_threshold": 3,
            "plan_seed": 7,
        },
        format="json",
    )
    assert created.status_code == 201
    body = created.json()
    assert {k: v for k, v in body.items() if k not in ("id", "created_at")} == {
        "slug": "su-csqa",
        "name": "Sundanese CSQA",
        "task_type": "csqa",
        "languages": [
            {"code": "su", "name": "Sundanese", "direction": "ltr"},
            {"code": "id", "name": "Indonesian", "direction": "ltr"},
        ],
        "guidelines": "# Tulis soal",
        "authors_per_concept": 2,
        "answerers_per_item": 5,
        "ambiguity_threshold": 3,
        "judging_mode": "fixed",
        "adaptive_confidence": 99,
        "adaptive_min_judges": 2,
        "settings": {
            "answerers_per_item": 5,
            "ambiguity_threshold": 3,
            "judging_mode": "fixed",
            "adaptive_confidence": 99,
            "adaptive_min_judges": 2,
        },
        "plan_seed": 7,
        "max_annotators": 200,
        "licence": "CC BY-NC 4.0",
        "role": "admin",
    }
    base = "/api/projects/su-csqa"
    for username, role, code in [("rina", "reviewer", ""), ("asep", "annotator", "W1"), ("euis", "annotator", "W2")]:
        added = admin.post(
            f"{base}/members/", {"username": username, "role": role, "code": code, "password": PASSWORD}, format="json"
        )
        assert added.status_code == 201
        assert (added.json()["username"], added.json()["role"], added.json()["code"]) == (username, role, code)
    members = admin.get(f"{base}/members/").json()
    assert [(m["username"], m["role"], m["is_active"]) for m in members["results"]] == [
        ("boss", "admin", True),
        ("rina", "reviewer", True),
        ("asep", "annotator", True),
        ("euis", "annotator", True),
    ]
    asep_membership = members["results"][2]["id"]
    profile = {
        "native_languages": "su,id",
        "region": "Bandung",
        "country": "Indonesia",
        "ethnicity": "Sunda",
        "years_in_region": 20,
        "education": "S1",
    }
    put = admin.put(f"{base}/members/{asep_membership}/profile/", profile, format="json")
    assert (put.status_code, put.json()) == (200, profile)
    assert admin.get(f"{base}/members/{asep_membership}/profile/").json() == profile

    imported = admin.post(
        f"{base}/concepts/import/",
        {"file": SimpleUploadedFile("concepts.csv", CONCEPTS_CSV.encode())},
        format="multipart",
    )
    assert (imported.status_code, imported.json()) == (
        201,
        {"rows": 4, "categories_created": 2, "concepts_created": 4, "concepts_updated": 0},
    )
    planned = admin.post(f"{base}/plans/authoring/", {}, format="json")
    assert (planned.status_code, planned.json()) == (
        200,
        {"created": 8, "kept": 0, "removed": 0, "reactivated": 0, "workers": 2, "units": 4},
    )

    # An annotator writes, saves a draft, submits.
    asep = _as(APIClient, _token(api_client, "asep"))
    nxt = asep.post(f"{base}/assignments/next/", {"kind": "author"}, format="json")
    assert nxt.status_code == 200
    assignment = nxt.json()
    assert (assignment["kind"], assignment["status"], assignment["item_id"]) == ("author", "active", None)
    concept = assignment["concept"]
    draft = asep.put(
        f"{base}/assignments/{assignment['id']}/draft/",
        {"payload": {"question": "Belum selesai"}, "justification": ""},
        format="json",
    )
    assert draft.status_code == 200
    item_id = draft.json()["id"]
    assert (draft.json()["status"], draft.json()["version"], draft.json()["payload"]) == (
        "draft",
        1,
        {"question": "Belum selesai", "choices": ["", "", "", "", ""], "answer": ""},
    )
    first = _payload(concept["name"])
    submitted = asep.post(f"{base}/assignments/{assignment['id']}/submit/", {"payload": first}, format="json")
    assert submitted.status_code == 200
    assert (submitted.json()["id"], submitted.json()["status"], submitted.json()["version"]) == (
        item_id,
        "submitted",
        1,
    )
    assert asep.get(f"{base}/assignments/{assignment['id']}/").json()["status"] == "done"

    # The reviewer sends it back with an error type.
    rina = _as(APIClient, _token(api_client, "rina"))
    queue = rina.get(f"{base}/reviews/queue/").json()
    assert [i["id"] for i in queue["results"]] == [item_id]
    claimed = rina.post(f"{base}/reviews/next/", format="json")
    assert (claimed.status_code, claimed.json()["id"], claimed.json()["payload"]) == (200, item_id, first)
    version_1 = claimed.json()["version_id"]
    revise = rina.post(
        f"{base}/items/{item_id}/review/",
        {"version_id": version_1, "decision": "revise", "feedback": "Terlalu umum.", "error_types": ["too_general"]},
        format="json",
    )
    assert revise.status_code == 201
    assert {k: v for k, v in revise.json().items() if k not in ("id", "created_at")} == {
        "item_id": item_id,
        "version_id": version_1,
        "decision": "revise",
        "error_types": ["too_general"],
        "feedback": "Terlalu umum.",
        "reviewer": "rina",
    }

    # The annotator sees the feedback, revises and resubmits.
    seen = asep.get(f"{base}/items/{item_id}/").json()
    assert seen["status"] == "revision_requested"
    assert [(r["decision"], r["error_types"], r["feedback"]) for r in seen["reviews"]] == [
        ("revise", ["too_general"], "Terlalu umum.")
    ]
    revised = _payload(concept["name"], " saat Lebaran di Bandung")
    again = asep.post(f"{base}/assignments/{assignment['id']}/submit/", {"payload": revised}, format="json")
    assert (again.status_code, again.json()["status"], again.json()["version"]) == (200, "submitted", 2)
    assert again.json()["diff"] == [{"field": "Question", "old": first["question"], "new": revised["question"]}]

    # It comes back to the same reviewer, who approves.
    back = rina.post(f"{base}/reviews/next/", format="json")
    assert (back.status_code, back.json()["id"], back.json()["version"]) == (200, item_id, 2)
    approve = rina.post(
        f"{base}/items/{item_id}/review/",
        {"version_id": back.json()["version_id"], "decision": "approve", "feedback": ""},
        format="json",
    )
    assert (approve.status_code, approve.json()["decision"], approve.json()["error_types"]) == (201, "approve", [])
    assert rina.post(f"{base}/reviews/next/", format="json").status_code == 204

    final = asep.get(f"{base}/items/{item_id}/").json()
    assert final["status"] == "approved"
    assert [(v["number"], v["payload"]) for v in final["versions"]] == [(1, first), (2, revised)]
    assert [r["decision"] for r in final["reviews"]] == ["revise", "approve"]
    assert (final["concept"], final["category"], final["author"], final["reviewer"]) == (
        concept,
        concept["category"],
        "asep",
        "rina",
    )

    # The dashboard counts moved.
    dashboard = admin.get(f"{base}/dashboard/").json()
    assert [c["name"] for c in dashboard["categories"]] == ["culinary", "place"]
    assert dashboard["status_counts"] == {
        "draft": 0,
        "submitted": 0,
        "revision_requested": 0,
        "approved": 1,
        "rejected": 0,
        "judged": 0,
        "gold": 0,
        "excluded": 0,
        "check": 0,
    }
    done = [1 if c["name"] == concept["category"] else 0 for c in dashboard["categories"]]
    codes = [e["code"] for e in dashboard["error_types"]]
    rows = {a["username"]: a for a in dashboard["annotators"]}
    assert rows["asep"]["progress"] == [{"done": done[0], "total": 2}, {"done": done[1], "total": 2}]
    assert rows["euis"]["progress"] == [{"done": 0, "total": 2}, {"done": 0, "total": 2}]
    assert dict(zip(codes, rows["asep"]["errors"], strict=True)) == {c: int(c == "too_general") for c in codes}
    assert rows["euis"]["errors"] == [0] * len(codes)
