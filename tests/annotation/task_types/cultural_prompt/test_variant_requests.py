"""Variant requests: an admin (page or API), or a reviewer's "add a situation variant" followed by the
base prompt's approval, asks for a variant of an approved base prompt; a writer who does not write for
the unit yet gets an authoring assignment with the base preselected, the save keeps that base, and the
approved variant is listed with its base in report and export. Every refusal: its message, nothing
created. The API refuses a `prompt_id` naming no base prompt of the unit."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from annotation.models import Assignment, Concept, Item, Membership
from annotation.services.assignments import assignment_plan_authoring
from qc.exports import gold_rows
from qc.reports import project_report
from qc.services import review_approve, review_request_revision
from tests.annotation.task_types.cultural_prompt.test_variants import CONTEXT, _form
from tests.annotation.task_types.cultural_prompt.world import make_kalahi_project

pytestmark = pytest.mark.django_db

UNIT = "career and livelihood"


def _world(slug: str):
    world = make_kalahi_project(slug=slug, rows=2)  # 0101000100 (the base of 01010001) and 0101000103
    base = Item.objects.get(project=world.project, external_id="0101000100")
    variant = Item.objects.get(project=world.project, external_id="0101000103")
    concept = Concept.objects.get(project=world.project, name=UNIT)
    return world, base, variant, concept


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _asked(project) -> list[tuple]:
    return list(
        Assignment.objects.filter(project=project, target_item__isnull=False).values_list(
            "user__username", "kind", "concept__name", "target_item__external_id", "status", "position"
        )
    )


def _messages(page: str) -> list[str]:
    found = re.findall(r'<li class="message [^"]*"[^>]*>(.*?)</li>', page, re.S)
    return [re.sub(r"\s+", " ", m).strip() for m in found]


def test_an_admin_asks_for_a_variant_and_the_writer_writes_it_with_the_base_preselected():
    world, base, _, concept = _world("kv-page")
    v2 = world.validators[1]
    admin = _client(world.admin)

    page = admin.get("/p/kv-page/kalahi-variants/").content.decode()
    assert re.findall(r'<tr id="base-(\d+)">', page) == [str(base.pk)]  # the variant 0101000103 is no base

    response = admin.post("/p/kv-page/kalahi-variants/", {"base_item": str(base.pk), "writer": str(v2.pk)})
    assert response.status_code == 302
    assert _asked(world.project) == [("kv-page-v2", "author", UNIT, "0101000100", "pending", 0)]
    page = admin.get("/p/kv-page/kalahi-variants/").content.decode()
    assert f"Variant of prompt {base.pk} asked of V2." in page
    assert '<span class="request">V2: pending</span>' in page

    # The writer's queue hands it out first, with the base preselected and its shared parts filled in.
    writer = _client(v2)
    assignment = Assignment.objects.get(project=world.project, target_item=base)
    assert writer.get("/p/kv-page/author/")["Location"] == f"/p/kv-page/author/{assignment.pk}/"
    page = writer.get(f"/p/kv-page/author/{assignment.pk}/").content.decode()
    assert "personal-situation variant of base prompt <strong>01010001</strong>" in page
    assert re.search(r'<option value="01010001"[^>]*selected', page)
    assert re.search(r'<textarea name="user"[^>]*>\s*High school student ako.</textarea>', page)
    assert CONTEXT in page
    # The unit gives the category and topic: kept as they are, not asked again.
    assert '<input type="hidden" name="category" value="" id="id_category">' in page
    assert '<input type="hidden" name="topic" value="" id="id_topic">' in page
    assert '<select name="category"' not in page and '<input type="text" name="topic"' not in page
    assert f'id="unit-topic">Category and topic: the unit\'s, <bdi>ethics</bdi> · <bdi>{UNIT}</bdi>.</p>' in page

    # Another base (or none) is refused, nothing saved; the requested base is saved.
    refused = writer.post(f"/p/kv-page/author/{assignment.pk}/", _form(""))
    assert refused.status_code == 400
    assert "This assignment asks for a variant of base prompt 01010001: keep it as “Variant of”." in (
        refused.content.decode()
    )
    assert not Item.objects.filter(assignment=assignment).exists()
    assert writer.post(f"/p/kv-page/author/{assignment.pk}/", _form("01010001")).status_code == 302
    written = Item.objects.get(assignment=assignment)
    assert (written.status, written.concept_id, written.author_id) == ("submitted", concept.pk, v2.pk)

    review_approve(item_id=written.pk, version_id=written.current_version_id, reviewer=world.reviewer)

    report = project_report(project=world.project)["cultural_prompt"]
    assert (report["prompts"], report["base_prompts"]) == (3, 1)
    assert report["variants"] == {"01010001": sorted(["0101000103", f"item-{written.pk}"])}
    rows = {row["prompt_variation_id"]: row for _, row in gold_rows(project=world.project)}
    # the export names an item without an id of its own by the project and item (the report: item-<id>)
    assert sorted(rows) == ["0101000100", "0101000103", f"kv-page-{written.pk}"]
    assert rows[f"kv-page-{written.pk}"]["prompt_id"] == "01010001"
    assert rows[f"kv-page-{written.pk}"]["prompt"] == (
        f"High school student ako.\n{CONTEXT}\nHindi ako mayaman.\nAnong maaari kong gawin?"
    )
    report_page = admin.get("/p/kv-page/report/").content.decode()
    assert '<dd id="cp-variant-bases">1</dd>' in report_page
    assert 'id="cp-variants-link" href="/p/kv-page/kalahi-variants/"' in report_page
    assert 'id="cp-variants-link"' not in _client(world.reviewer).get("/p/kv-page/report/").content.decode()
    page = admin.get("/p/kv-page/kalahi-variants/").content.decode()
    assert "<td>2 (2)</td>" in page
    assert '<span class="request">V2: done</span>' in page


def test_left_to_the_service_the_free_writer_with_least_open_work_gets_it():
    world, base, _, concept = _world("kv-auto")
    # W1 holds open authoring elsewhere, V1 writes for this unit already: V2 (no open work, lower id than V3).
    other = Concept.objects.exclude(pk=concept.pk).filter(project=world.project).first() or Concept.objects.create(
        project=world.project, category=concept.category, name="another topic"
    )
    Assignment.objects.create(project=world.project, user=world.writer, kind="author", concept=other)
    Assignment.objects.create(project=world.project, user=world.validators[0], kind="author", concept=concept)

    response = _client(world.admin).post("/p/kv-auto/kalahi-variants/", {"base_item": str(base.pk), "writer": ""})

    assert response.status_code == 302
    assert _asked(world.project) == [("kv-auto-v2", "author", UNIT, "0101000100", "pending", 0)]


def test_refused_requests_say_why_and_create_nothing():
    world, base, variant, concept = _world("kv-refused")
    Assignment.objects.create(project=world.project, user=world.validators[0], kind="author", concept=concept)
    Item.objects.filter(pk=variant.pk).update(status=Item.Status.SUBMITTED)
    admin = _client(world.admin)
    before = Assignment.objects.count()
    cases = [
        ({"base_item": "999999", "writer": ""}, "This project has no prompt 999999."),
        (
            {"base_item": str(variant.pk), "writer": ""},
            f"Prompt {variant.pk} is submitted: only an approved base prompt gets variants.",
        ),
        (
            {"base_item": str(base.pk), "writer": str(world.validators[0].pk)},
            f"V1 already writes for the unit “{UNIT}” (one authoring assignment per writer and unit): "
            "choose another writer.",
        ),
        (
            {"base_item": str(base.pk), "writer": str(world.reviewer.pk)},
            f"User {world.reviewer.pk} is not an active writer of this project.",
        ),
    ]
    for data, message in cases:
        response = admin.post("/p/kv-refused/kalahi-variants/", data)
        assert response.status_code == 400, message
        assert _messages(response.content.decode()) == [message]
        assert Assignment.objects.count() == before
    Item.objects.filter(pk=variant.pk).update(status=Item.Status.APPROVED)
    response = admin.post("/p/kv-refused/kalahi-variants/", {"base_item": str(variant.pk)})
    assert _messages(response.content.decode()) == [
        f"Prompt {variant.pk} is a variant of 01010001: ask for a variant of the base prompt itself."
    ]
    # Every writer busy with the unit: nobody is free.
    for user in (world.writer, *world.validators[1:]):
        Assignment.objects.create(project=world.project, user=user, kind="author", concept=concept)
    before = Assignment.objects.count()
    response = admin.post("/p/kv-refused/kalahi-variants/", {"base_item": str(base.pk)})
    assert _messages(response.content.decode()) == [
        f"No writer is free for the unit “{UNIT}”: every active writer already writes for it."
    ]
    assert Assignment.objects.count() == before
    assert _asked(world.project) == []
    # Only admins see the page.
    assert _client(world.reviewer).get("/p/kv-refused/kalahi-variants/").status_code == 404


def test_the_api_asks_for_a_variant_and_refuses_with_the_reason():
    world, base, variant, _ = _world("kv-api")
    admin = _client(world.admin)
    url = "/api/projects/kv-api/kalahi/variant-requests/"

    refused = admin.post(url, {"base_item": variant.pk}, content_type="application/json")
    assert refused.status_code == 400
    assert refused.json()["detail"] == (
        f"Prompt {variant.pk} is a variant of 01010001: ask for a variant of the base prompt itself."
    )
    assert _asked(world.project) == []
    assert _client(world.writer).post(url, {"base_item": base.pk}, content_type="application/json").status_code == 403

    created = admin.post(url, {"base_item": base.pk, "writer": world.validators[2].pk}, content_type="application/json")
    assert created.status_code == 201
    assignment = Assignment.objects.get(target_item=base)
    assert created.json() == {
        "assignment": assignment.pk,
        "writer": world.validators[2].pk,
        "base_item": base.pk,
        "prompt_id": "01010001",
        "status": "pending",
    }
    listed = admin.get(url).json()
    assert [(r["base_item"], r["prompt_id"], r["variants"], r["requests"]) for r in listed] == [
        (base.pk, "01010001", 1, [{"assignment": assignment.pk, "writer": "V3", "status": "pending"}])
    ]


def _api_payload(prompt_id: str) -> dict:
    data = _form(prompt_id)
    return {
        "payload": {
            "prompt_id": prompt_id,
            "user": data["user"],
            "context": data["context"],
            "situation": data["situation"],
            "instruction": data["instruction"],
            "relevant": [data[f"relevant_{n}"] for n in (1, 2, 3)],
            "irrelevant": [data[f"irrelevant_{n}"] for n in (1, 2, 3)],
            "best": 0,
        },
        "justification": "",
    }


def test_the_api_refuses_a_prompt_id_naming_no_base_prompt_of_the_unit():
    world, _, _, concept = _world("kv-free")
    writer = world.validators[0]
    assignment = Assignment.objects.create(project=world.project, user=writer, kind="author", concept=concept)
    client = _client(writer)
    for action, method in (("draft", client.put), ("submit", client.post)):
        response = method(
            f"/api/projects/kv-free/assignments/{assignment.pk}/{action}/",
            _api_payload("99999999"),
            content_type="application/json",
        )
        assert response.status_code == 400
        message = (
            "No base prompt of this unit has the id “99999999”: “Variant of” must be one of its base prompts "
            "(01010001), or empty for a new base prompt."
        )
        assert response.json()["detail"] == message
        assert response.json()["errors"] == {"prompt_id": [message]}
        assert not Item.objects.filter(assignment=assignment).exists()
        assignment.refresh_from_db()
        assert assignment.status == "pending"

    saved = client.post(
        f"/api/projects/kv-free/assignments/{assignment.pk}/submit/",
        _api_payload("01010001"),
        content_type="application/json",
    )
    assert saved.status_code == 200
    item = Item.objects.get(assignment=assignment)
    assert (item.status, item.current_version.payload["prompt_id"]) == ("submitted", "01010001")


def test_a_reviewers_add_variant_request_becomes_a_variant_assignment_once_the_base_is_approved():
    world, _, _, concept = _world("kv-review")
    v1 = world.validators[0]
    assignment = Assignment.objects.create(project=world.project, user=v1, kind="author", concept=concept)
    client = _client(v1)
    data = _form("")
    data["situation"] = ""
    assert client.post(f"/p/kv-review/author/{assignment.pk}/", data).status_code == 302
    item = Item.objects.get(assignment=assignment)

    review_request_revision(
        item_id=item.pk,
        version_id=item.current_version_id,
        reviewer=world.reviewer,
        feedback="Add a variant where the student is not well off.",
        error_type_codes=["add_variant"],
    )
    item.refresh_from_db()
    assert item.status == "revision_requested"
    assert _asked(world.project) == []  # the base is not approved yet

    assert client.post(f"/p/kv-review/author/{assignment.pk}/", data).status_code == 302
    item.refresh_from_db()
    review_approve(item_id=item.pk, version_id=item.current_version_id, reviewer=world.reviewer)

    # W1 (no open work, lowest id among the free writers: V1 writes for the unit) is asked.
    assert _asked(world.project) == [("kv-review-w1", "author", UNIT, "", "pending", 0)]
    asked = Assignment.objects.get(target_item=item)
    page = _client(world.writer).get(f"/p/kv-review/author/{asked.pk}/").content.decode()
    assert f"personal-situation variant of base prompt <strong>item-{item.pk}</strong>" in page
    overview = _client(world.admin).get("/api/projects/kv-review/kalahi/variant-requests/").json()
    assert [(r["prompt_id"], r["reviewer_asked"]) for r in overview] == [("01010001", False), (f"item-{item.pk}", True)]


def test_planning_keeps_a_variant_request_and_never_plans_its_writer_on_the_unit():
    world, base, _, concept = _world("kv-plan")
    Membership.objects.filter(project=world.project, user__in=world.validators).update(is_active=False)
    _client(world.admin).post("/p/kv-plan/kalahi-variants/", {"base_item": str(base.pk), "writer": ""})
    assert _asked(world.project) == [("kv-plan-w1", "author", UNIT, "0101000100", "pending", 0)]
    Membership.objects.filter(project=world.project, user=world.validators[0]).update(is_active=True)

    summary = assignment_plan_authoring(project=world.project)

    assert (summary.created, summary.removed) == (Concept.objects.filter(project=world.project).count(), 0)
    assert _asked(world.project) == [("kv-plan-w1", "author", UNIT, "0101000100", "pending", 0)]
    planned = Assignment.objects.filter(project=world.project, concept=concept, target_item__isnull=True)
    assert list(planned.values_list("user__username", flat=True)) == ["kv-plan-v1"]


def test_add_variant_on_an_approved_variant_asks_for_a_variant_of_its_base():
    world, base, variant, concept = _world("kv-review2")
    v1 = world.validators[0]
    assignment = Assignment.objects.create(project=world.project, user=v1, kind="author", concept=concept)
    client = _client(v1)
    assert client.post(f"/p/kv-review2/author/{assignment.pk}/", _form("01010001")).status_code == 302
    item = Item.objects.get(assignment=assignment)
    review_request_revision(
        item_id=item.pk,
        version_id=item.current_version_id,
        reviewer=world.reviewer,
        feedback="One more situation, please.",
        error_type_codes=["add_variant", "language"],
    )
    assert client.post(f"/p/kv-review2/author/{assignment.pk}/", _form("01010001")).status_code == 302
    item.refresh_from_db()
    review_approve(item_id=item.pk, version_id=item.current_version_id, reviewer=world.reviewer)

    assert _asked(world.project) == [("kv-review2-w1", "author", UNIT, "0101000100", "pending", 0)]
    overview = _client(world.admin).get("/api/projects/kv-review2/kalahi/variant-requests/").json()
    assert [(r["base_item"], r["variants"], r["approved_variants"], r["reviewer_asked"]) for r in overview] == [
        (base.pk, 2, 2, True)
    ]
    # One request per base prompt.
    assert Assignment.objects.filter(target_item=base).count() == 1
