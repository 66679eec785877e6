"""Endpoints the loop test doesn't walk through: settings, members, filters, empty queues."""

import pytest
from django.contrib.auth import get_user_model

from annotation.models import Assignment, Category, Membership
from annotation.services.assignments import assignment_plan_authoring
from annotation.services.items import item_save_draft, item_submit
from tests.api.conftest import client_for, db_state
from tests.conftest import VALID_PAYLOAD

pytestmark = pytest.mark.django_db


def test_admin_changes_project_settings_and_languages(csqa):
    client = client_for(csqa.admin)

    response = client.patch(
        "/api/projects/demo/",
        {
            "name": "Demo CSQA",
            "authors_per_concept": 3,
            "languages": [{"code": "id", "name": "Indonesian"}, {"code": "ar", "name": "Arabic", "direction": "rtl"}],
        },
        format="json",
    )

    assert response.status_code == 200
    body = response.json()
    assert (body["name"], body["authors_per_concept"], body["answerers_per_item"], body["role"]) == (
        "Demo CSQA",
        3,
        5,
        "admin",
    )
    assert body["languages"] == [
        {"code": "id", "name": "Indonesian", "direction": "ltr"},
        {"code": "ar", "name": "Arabic", "direction": "rtl"},
    ]
    csqa.project.refresh_from_db()
    assert (csqa.project.name, csqa.project.authors_per_concept) == ("Demo CSQA", 3)


def test_project_settings_out_of_range_are_refused(csqa):
    client = client_for(csqa.admin)
    before = db_state()

    response = client.patch(
        "/api/projects/demo/",
        {"authors_per_concept": 0, "languages": [{"code": "x", "direction": "up"}]},
        format="json",
    )

    assert (response.status_code, response.json()) == (
        400,
        {
            "detail": "Invalid input.",
            "code": "invalid",
            "errors": {
                "authors_per_concept": ["Ensure this value is greater than or equal to 1."],
                "languages": [{"direction": ['"up" is not a valid choice.']}],
            },
        },
    )
    assert db_state() == before


def test_member_role_change_deactivation_and_return(csqa):
    client = client_for(csqa.admin)
    membership = Membership.objects.get(project=csqa.project, user=csqa.annotators[2])
    url = f"/api/projects/demo/members/{membership.pk}/"

    promoted = client.patch(url, {"role": "reviewer"}, format="json").json()
    left = client.patch(url, {"is_active": False}, format="json").json()
    renamed_while_away = client.patch(url, {"role": "annotator"}, format="json").json()
    back = client.patch(url, {"is_active": True}, format="json").json()

    assert [(m["role"], m["is_active"]) for m in (promoted, left, renamed_while_away, back)] == [
        ("reviewer", True),
        ("reviewer", False),
        ("annotator", False),
        ("annotator", True),
    ]
    assert (back["id"], back["username"], back["code"]) == (membership.pk, "demo-ann3", "W3")
    assert client.patch(url, {}, format="json").json() == {
        "detail": "Invalid input.",
        "code": "invalid",
        "errors": {"non_field_errors": ["Give a role or is_active."]},
    }


def test_platform_admin_adds_an_existing_user_and_refuses_a_weak_password(csqa, other_project):
    csqa.admin.is_staff = True
    csqa.admin.save(update_fields=["is_staff"])
    client = client_for(csqa.admin)
    before = db_state()

    weak = client.post(
        "/api/projects/demo/members/", {"username": "baru", "role": "annotator", "password": "123"}, format="json"
    )

    assert weak.status_code == 400
    assert weak.json()["errors"]["password"] == [
        "This password is too short. It must contain at least 8 characters.",
        "This password is too common.",
        "This password is entirely numeric.",
    ]
    assert db_state() == before
    existing = client.post(
        "/api/projects/demo/members/", {"username": "other-ann1", "role": "annotator"}, format="json"
    )
    assert (existing.status_code, existing.json()["username"], existing.json()["role"]) == (
        201,
        "other-ann1",
        "annotator",
    )


def test_project_admin_invites_the_same_way_whether_or_not_the_name_exists(csqa, other_project):
    client = client_for(csqa.admin)

    existing = client.post(
        "/api/projects/demo/members/", {"username": "other-ann1", "role": "annotator"}, format="json"
    )
    missing = client.post("/api/projects/demo/members/", {"username": "nobody", "role": "annotator"}, format="json")
    created = client.post(
        "/api/projects/demo/members/",
        {"username": "baru", "role": "annotator", "password": "Bandung-Hujan-2026"},
        format="json",
    )

    strip = lambda body: {k: v for k, v in body.items() if k not in ("id", "username", "created_at")}  # noqa: E731
    assert (existing.status_code, missing.status_code) == (202, 202)
    assert (
        strip(existing.json())
        == strip(missing.json())
        == {
            "project": "demo",
            "role": "annotator",
            "code": "",
            "status": "pending",
        }
    )
    assert (created.status_code, created.json()["code"]) == (403, "not_allowed")
    assert (
        created.json()["detail"]
        == "Only a platform admin can create accounts; invite an existing user by name instead."
    )
    assert not Membership.objects.filter(project=csqa.project, user__username__in=["other-ann1", "baru"]).exists()
    assert not get_user_model().objects.filter(username="baru").exists()


def test_invitee_lists_accepts_and_joins_over_the_api(csqa, other_project):
    client_for(csqa.admin).post(
        "/api/projects/demo/members/", {"username": "other-ann1", "role": "annotator", "code": "W7"}, format="json"
    )
    invitee = client_for(other_project.annotators[0])

    listed = invitee.get("/api/invitations/").json()["results"]
    accepted = invitee.post(f"/api/invitations/{listed[0]['id']}/accept/")
    again = invitee.post(f"/api/invitations/{listed[0]['id']}/accept/")

    assert [(i["project"], i["role"], i["code"]) for i in listed] == [("demo", "annotator", "W7")]
    assert (accepted.status_code, accepted.json()["role"], accepted.json()["code"]) == (200, "annotator", "W7")
    assert again.status_code == 404
    assert Membership.objects.get(project=csqa.project, user=other_project.annotators[0]).is_active is True


def test_admin_cannot_demote_or_remove_themselves_over_the_api(csqa):
    client = client_for(csqa.admin)
    mine = Membership.objects.get(project=csqa.project, user=csqa.admin)
    before = db_state()

    demote = client.patch(f"/api/projects/demo/members/{mine.pk}/", {"role": "annotator"}, format="json")
    leave = client.patch(f"/api/projects/demo/members/{mine.pk}/", {"is_active": False}, format="json")

    assert (demote.status_code, demote.json()["detail"]) == (400, "You can't change your own role; ask another admin.")
    assert (leave.status_code, leave.json()["detail"]) == (
        400,
        "You can't remove yourself from the project; ask another admin.",
    )
    assert db_state() == before


def test_profile_put_replaces_the_profile(csqa):
    client = client_for(csqa.admin)
    membership = Membership.objects.get(project=csqa.project, user=csqa.annotators[0])
    url = f"/api/projects/demo/members/{membership.pk}/profile/"
    client.put(url, {"region": "Garut", "education": "SMA", "years_in_region": 12}, format="json")

    response = client.put(url, {"region": "Tasikmalaya"}, format="json")

    assert (response.status_code, response.json()) == (
        200,
        {
            "native_languages": "",
            "region": "Tasikmalaya",
            "country": "",
            "ethnicity": "",
            "years_in_region": None,
            "education": "",
        },
    )


def test_concepts_filter_by_category_and_list_pagination(csqa):
    client = client_for(csqa.annotators[0])
    cat1 = Category.objects.get(project=csqa.project, name="cat1")

    filtered = client.get("/api/projects/demo/concepts/", {"category": cat1.pk}).json()
    first = client.get("/api/projects/demo/concepts/", {"page_size": 2}).json()
    second = client.get(first["next"]).json()
    back = client.get(second["previous"]).json()
    bad = client.get("/api/projects/demo/concepts/", {"category": "x"})

    assert [(c["category"], c["name"]) for c in filtered["results"]] == [
        ("cat1", "konsep1x1"),
        ("cat1", "konsep1x2"),
        ("cat1", "kunjung"),
    ]
    assert [c["name"] for c in first["results"]] == ["konsep0x1", "konsep0x2"]
    assert [c["name"] for c in second["results"]] == ["kunjung", "konsep1x1"]
    assert (back["results"], first["previous"]) == (first["results"], None)
    assert (bad.status_code, bad.json()["errors"]) == (400, {"category": ["A valid integer is required."]})


def test_assignment_and_item_filters(csqa):
    assignment_plan_authoring(project=csqa.project)
    annotator = csqa.annotators[0]
    mine = list(Assignment.objects.filter(user=annotator).order_by("position", "id"))
    item_submit(assignment_id=mine[0].pk, user=annotator, data=VALID_PAYLOAD, justification="Sinonim.")
    draft = item_save_draft(assignment_id=mine[1].pk, user=annotator, data=VALID_PAYLOAD)
    client = client_for(annotator)

    done = client.get("/api/projects/demo/assignments/", {"kind": "author", "status": "done"}).json()["results"]
    active = client.get("/api/projects/demo/assignments/", {"status": "active"}).json()["results"]
    drafts = client.get("/api/projects/demo/items/", {"status": "draft"}).json()["results"]
    bad = client.get("/api/projects/demo/items/", {"status": "lost"})

    assert [a["id"] for a in done] == [mine[0].pk]
    assert [(a["id"], a["item_id"]) for a in active] == [(mine[1].pk, draft.pk)]
    assert [(i["id"], i["summary"], i["version"]) for i in drafts] == [(draft.pk, VALID_PAYLOAD["question"], 1)]
    assert (bad.status_code, bad.json()["errors"]) == (400, {"status": ['"lost" is not a valid choice.']})


def test_next_answers_204_when_the_queue_is_empty(csqa):
    client = client_for(csqa.annotators[0])
    reviewer = client_for(csqa.reviewer)

    assert client.post("/api/projects/demo/assignments/next/", {"kind": "author"}, format="json").status_code == 204
    assert reviewer.post("/api/projects/demo/reviews/next/", format="json").status_code == 204
    assert reviewer.get("/api/projects/demo/reviews/queue/").json()["results"] == []


def test_error_types_are_the_papers_taxonomy(csqa):
    response = client_for(csqa.annotators[0]).get("/api/projects/demo/error-types/").json()

    assert [e["code"] for e in response["results"]] == [
        "typo",
        "fluency",
        "structure",
        "too_general",
        "subjective",
        "logic_not_commonsense",
        "equal_options",
        "answer_distractor_equivalent",
        "no_valid_answer",
        "wrong_language",
        "translation_error",
    ]
    assert response["results"][3]["label"] == "Context too general"


def test_reviewer_cannot_decide_with_an_old_version(csqa):
    assignment_plan_authoring(project=csqa.project)
    annotator = csqa.annotators[0]
    assignment = Assignment.objects.filter(user=annotator).order_by("position", "id").first()
    item = item_submit(assignment_id=assignment.pk, user=annotator, data=VALID_PAYLOAD, justification="Sinonim.")
    client = client_for(csqa.reviewer)
    before = db_state()

    response = client.post(
        f"/api/projects/demo/items/{item.pk}/review/",
        {"version_id": item.current_version_id + 1000, "decision": "reject", "feedback": "Salah."},
        format="json",
    )
    approve_with_errors = client.post(
        f"/api/projects/demo/items/{item.pk}/review/",
        {"version_id": item.current_version_id, "decision": "approve", "error_types": ["typo"]},
        format="json",
    )

    assert (response.status_code, response.json()) == (
        409,
        {
            "detail": "This item has changed since you opened it; reload to see the current version.",
            "code": "conflict",
        },
    )
    assert (approve_with_errors.status_code, approve_with_errors.json()["errors"]) == (
        400,
        {"error_types": ["An approval has no error types."]},
    )
    assert db_state() == before
