"""Object-level permissions: another project's objects are 404; roles gate the rest with 403."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from annotation.models import Assignment, Membership
from annotation.services.assignments import assignment_plan_authoring
from annotation.services.items import item_save_draft, item_submit
from annotation.services.projects import membership_deactivate
from qc.services import review_claim_next, review_request_revision
from tests.api.conftest import client_for, db_state, row_counts
from tests.conftest import VALID_PAYLOAD

pytestmark = pytest.mark.django_db

NOT_FOUND_CODE = "not_found"


@pytest.fixture
def world(csqa, other_project):
    """demo: ann1 has a submitted item sent back for revision, ann2 a draft; other: planned too."""
    assignment_plan_authoring(project=csqa.project)
    assignment_plan_authoring(project=other_project.project)
    ann1, ann2 = csqa.annotators[0], csqa.annotators[1]
    a1 = Assignment.objects.filter(user=ann1).order_by("position", "id").first()
    item1 = item_submit(assignment_id=a1.pk, user=ann1, data=VALID_PAYLOAD, justification="Sinonim.")
    review_claim_next(project=csqa.project, reviewer=csqa.reviewer)
    review_request_revision(
        item_id=item1.pk,
        version_id=item1.current_version_id,
        reviewer=csqa.reviewer,
        feedback="Terlalu umum.",
        error_type_codes=["too_general"],
    )
    a2 = Assignment.objects.filter(user=ann2).order_by("position", "id").first()
    item2 = item_save_draft(assignment_id=a2.pk, user=ann2, data=VALID_PAYLOAD)
    return {
        "csqa": csqa,
        "other": other_project,
        "ann1": ann1,
        "ann2": ann2,
        "a1": a1,
        "a2": a2,
        "item1": item1,
        "item2": item2,
        "member1": Membership.objects.get(project=csqa.project, user=ann1),
    }


def _project_requests(slug, *, membership_id, assignment_id, item_id, version_id):
    """Every project-scoped endpoint, with a body that would succeed for an allowed caller."""
    base = f"/api/projects/{slug}"
    return [
        ("get", f"{base}/", None),
        ("patch", f"{base}/", {"name": "Taken over"}),
        ("get", f"{base}/members/", None),
        ("post", f"{base}/members/", {"username": "intruder", "role": "admin", "password": "pw-Intruder-2026"}),
        ("patch", f"{base}/members/{membership_id}/", {"role": "admin"}),
        ("get", f"{base}/members/{membership_id}/profile/", None),
        ("put", f"{base}/members/{membership_id}/profile/", {"region": "Elsewhere"}),
        ("get", f"{base}/categories/", None),
        ("get", f"{base}/concepts/", None),
        ("post", f"{base}/concepts/import/", "multipart"),
        ("post", f"{base}/plans/authoring/", {"seed": 99}),
        ("get", f"{base}/assignments/", None),
        ("post", f"{base}/assignments/next/", {"kind": "author"}),
        ("get", f"{base}/assignments/{assignment_id}/", None),
        ("put", f"{base}/assignments/{assignment_id}/draft/", {"payload": VALID_PAYLOAD}),
        ("post", f"{base}/assignments/{assignment_id}/submit/", {"payload": VALID_PAYLOAD}),
        ("get", f"{base}/items/", None),
        ("get", f"{base}/items/{item_id}/", None),
        ("post", f"{base}/items/{item_id}/review/", {"version_id": version_id, "decision": "approve"}),
        ("get", f"{base}/reviews/queue/", None),
        ("post", f"{base}/reviews/next/", {}),
        ("get", f"{base}/error-types/", None),
        ("get", f"{base}/dashboard/", None),
    ]


def _call(client, method, path, body):
    if body == "multipart":
        upload = SimpleUploadedFile("c.csv", b"category,concept\nnew,baru\n")
        return client.post(path, {"file": upload}, format="multipart")
    return getattr(client, method)(path, body, format="json")


def _demo_requests(world):
    return _project_requests(
        "demo",
        membership_id=world["member1"].pk,
        assignment_id=world["a1"].pk,
        item_id=world["item1"].pk,
        version_id=world["item1"].current_version_id,
    )


@pytest.mark.parametrize("role", ["admin", "reviewer", "annotator"])
def test_member_of_another_project_gets_404_everywhere_and_changes_nothing(world, role):
    other = world["other"]
    outsider = {"admin": other.admin, "reviewer": other.reviewer, "annotator": other.annotators[0]}[role]
    client = client_for(outsider)
    requests = _demo_requests(world)
    assert len(requests) == 23
    before = db_state()

    answers = [(method, path, _call(client, method, path, body)) for method, path, body in requests]

    assert [(m, p, r.status_code) for m, p, r in answers] == [(m, p, 404) for m, p, _ in requests]
    assert {r.json()["code"] for _, _, r in answers} == {NOT_FOUND_CODE}
    after = db_state()
    assert row_counts(after) == row_counts(before)
    assert after == before
    listed = client.get("/api/projects/").json()
    assert [p["slug"] for p in listed["results"]] == ["other"]


def test_ids_of_another_project_through_my_own_project_are_404(world):
    """An admin of `other` passes every role check there, so only the object scoping stops them."""
    client = client_for(world["other"].admin)
    m, a, i, v = world["member1"].pk, world["a1"].pk, world["item1"].pk, world["item1"].current_version_id
    base = "/api/projects/other"
    requests = [
        ("patch", f"{base}/members/{m}/", {"role": "admin"}),
        ("get", f"{base}/members/{m}/profile/", None),
        ("put", f"{base}/members/{m}/profile/", {"region": "Elsewhere"}),
        ("get", f"{base}/assignments/{a}/", None),
        ("put", f"{base}/assignments/{a}/draft/", {"payload": VALID_PAYLOAD}),
        ("post", f"{base}/assignments/{a}/submit/", {"payload": VALID_PAYLOAD}),
        ("get", f"{base}/items/{i}/", None),
        ("post", f"{base}/items/{i}/review/", {"version_id": v, "decision": "approve"}),
    ]
    before = db_state()

    statuses = [_call(client, m, p, b).status_code for m, p, b in requests]

    assert statuses == [404] * 8
    assert db_state() == before


def test_anonymous_callers_are_told_to_authenticate(world):
    client = client_for(world["ann1"])
    client.credentials()
    before = db_state()

    answers = [_call(client, m, p, b) for m, p, b in _demo_requests(world)]

    assert {(r.status_code, r.json()["code"]) for r in answers} == {(401, "not_authenticated")}
    assert client.get("/api/projects/").status_code == 401
    assert db_state() == before


def test_member_who_left_the_project_gets_404(world):
    membership_deactivate(membership=world["member1"])
    client = client_for(world["ann1"])

    assert client.get("/api/projects/demo/").status_code == 404
    assert client.get(f"/api/projects/demo/items/{world['item1'].pk}/").status_code == 404
    assert client.get("/api/projects/").json()["results"] == []


def test_annotator_cannot_see_another_annotators_item_or_assignment(world):
    client = client_for(world["ann1"])
    base = "/api/projects/demo"
    before = db_state()

    answers = [
        client.get(f"{base}/items/{world['item2'].pk}/"),
        client.get(f"{base}/assignments/{world['a2'].pk}/"),
        client.put(f"{base}/assignments/{world['a2'].pk}/draft/", {"payload": VALID_PAYLOAD}, format="json"),
        client.post(f"{base}/assignments/{world['a2'].pk}/submit/", {"payload": VALID_PAYLOAD}, format="json"),
    ]

    assert [(r.status_code, r.json()) for r in answers] == [
        (404, {"detail": "No such item.", "code": "not_found"}),
        (404, {"detail": "No such assignment.", "code": "not_found"}),
        (404, {"detail": "No such assignment.", "code": "not_found"}),
        (404, {"detail": "No such assignment.", "code": "not_found"}),
    ]
    assert db_state() == before
    assert [i["id"] for i in client.get(f"{base}/items/").json()["results"]] == [world["item1"].pk]
    own = client.get(f"{base}/assignments/").json()["results"]
    assert {a["id"] for a in own} == set(Assignment.objects.filter(user=world["ann1"]).values_list("id", flat=True))
    assert len(own) == 4


def test_reviewer_sees_every_item_of_the_project(world):
    client = client_for(world["csqa"].reviewer)

    items = client.get("/api/projects/demo/items/").json()["results"]

    assert [(i["id"], i["status"], i["author"]) for i in items] == [
        (world["item1"].pk, "revision_requested", "demo-ann1"),
        (world["item2"].pk, "draft", "demo-ann2"),
    ]
    assert client.get(f"/api/projects/demo/items/{world['item2'].pk}/").status_code == 200


ANNOTATOR_FORBIDDEN = {
    "patch /",
    "get /members/",
    "post /members/",
    "patch /members/{m}/",
    "get /members/{m}/profile/",
    "put /members/{m}/profile/",
    "post /concepts/import/",
    "post /plans/authoring/",
    "post /items/{i}/review/",
    "get /reviews/queue/",
    "post /reviews/next/",
    "get /dashboard/",
}
REVIEWER_FORBIDDEN = {
    "patch /",
    "get /members/",
    "post /members/",
    "patch /members/{m}/",
    "get /members/{m}/profile/",
    "put /members/{m}/profile/",
    "post /concepts/import/",
    "post /plans/authoring/",
}


def _key(world, method, path):
    tail = path.split("/demo", 1)[1]
    tail = tail.replace(f"/{world['member1'].pk}/", "/{m}/").replace(f"/{world['item1'].pk}/", "/{i}/")
    return f"{method} {tail}"


@pytest.mark.parametrize("role", ["annotator", "reviewer"])
def test_members_calling_endpoints_above_their_role_get_403_and_change_nothing(world, role):
    user, forbidden = (
        (world["ann1"], ANNOTATOR_FORBIDDEN)
        if role == "annotator"
        else (
            world["csqa"].reviewer,
            REVIEWER_FORBIDDEN,
        )
    )
    client = client_for(user)
    requests = [r for r in _demo_requests(world) if _key(world, r[0], r[1]) in forbidden]
    assert len(requests) == len(forbidden)
    before = db_state()

    answers = [_call(client, m, p, b) for m, p, b in requests]

    assert {(r.status_code, r.json()["code"]) for r in answers} == {(403, "not_allowed")}
    assert answers[0].json()["detail"] == "Your role in this project does not allow this."
    assert db_state() == before
    assert client.head("/api/projects/demo/members/").status_code == 403
