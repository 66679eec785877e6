"""Every route of the URL configuration that names a project or an invitation, tried by people who must
not reach it. The routes come from the resolver, not from a list written here, so a new page or
endpoint is covered the day it is added (and this test fails if it lets an outsider in)."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from rest_framework.test import APIClient

from annotation.models import Invitation, Item, Judgment, Membership
from annotation.services.members import invitation_create
from annotation.services.projects import membership_deactivate
from qc.models import ExportRun
from tests.annotation.views.helpers import submitted_item
from tests.api.conftest import db_state
from tests.conftest import VALID_PAYLOAD
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

METHODS = ("get", "post", "put", "patch", "delete")
_PARAM = re.compile(r"<(?:\w+:)?(\w+)>")


def _routes(resolver=None, prefix=""):
    for pattern in (resolver or get_resolver()).url_patterns:
        if isinstance(pattern, URLResolver):
            yield from _routes(pattern, prefix + str(pattern.pattern))
        elif isinstance(pattern, URLPattern):
            yield prefix + str(pattern.pattern), pattern


def guarded_routes() -> list[tuple[str, URLPattern]]:
    """Routes scoped to a project or an invitation (the site's admin has its own staff-only checks)."""
    return [
        (route, pattern)
        for route, pattern in _routes()
        if not route.startswith("django-admin/") and ("<slug:slug>" in route or "invitation_id" in route)
    ]


def _url(route: str, values: dict[str, object]) -> str:
    return "/" + _PARAM.sub(lambda m: str(values[m[1]]), route)


def _llm_call(project):
    """An LLM run of the project with one recorded call (evaluation's run and call pages)."""
    from evaluation.models import Call, Endpoint, Run

    endpoint, _ = Endpoint.objects.get_or_create(
        name="matrix", defaults={"base_url": "http://127.0.0.1:9/v1", "model": "m", "is_local": True}
    )
    run = Run.objects.create(kind="responses", project=project, parameters={"prompts": [{"key": "p1", "prompt": "x"}]})
    run.endpoints.set([endpoint])
    return Call.objects.create(run=run, endpoint=endpoint, unit_key="p1", template="responses")


@pytest.fixture
def demo_world(csqa, other_project):
    item = submitted_item(csqa, VALID_PAYLOAD)
    run = ExportRun.objects.create(project=csqa.project, format="jsonl", path="exports/demo/run-x")
    UserFactory(username="siti")
    invitation = invitation_create(project=csqa.project, username="siti", role="annotator", invited_by=csqa.admin)
    left = csqa.annotators[1]
    membership_deactivate(membership=Membership.objects.get(project=csqa.project, user=left))
    values = {
        "slug": "demo",
        "membership_id": Membership.objects.get(project=csqa.project, user=csqa.annotators[2]).pk,
        "item_id": item.pk,
        "concept_id": csqa.project.concepts.order_by("pk").first().pk,
        "assignment_id": item.assignment_id,
        "run_id": run.pk,
        "name": "test.jsonl",
        "invitation_id": invitation.pk,
        "call_id": _llm_call(csqa.project).pk,
        # a judgment flagging an error, so the correction route acts on a real object
        "judgment_id": Judgment.objects.create(
            project=csqa.project,
            item=item,
            user=next(u for u in csqa.annotators if u.pk != item.author_id),
            item_author=item.author,
            kind="answer",
            value={"answer": "A"},
            flags={"error": True},
        ).pk,
    }
    outsiders = {
        "other admin": other_project.admin,
        "other reviewer": other_project.reviewer,
        "other annotator": other_project.annotators[0],
        "former member": left,
    }
    return values, outsiders


def test_the_matrix_covers_the_person_and_invitation_routes():
    names = {pattern.name for _, pattern in guarded_routes()}

    assert {
        "project_members",
        "member_profile",
        "my_profile",
        "invitation_accept",
        "invitation_decline",
        "api-members",
        "api-member",
        "api-member-profile",
        "api-my-profile",
        "api-project-invitations",
        "api-project-invitation",
        "api-invitation-accept",
        "api-invitation-decline",
    } <= names
    assert len(names) >= 50


@pytest.fixture
def nli_world(other_project):
    """An NLI project with a written premise, a validation with a proposed correction and an export run,
    so every route (the NLI pages and their ids included) is tried on real objects of a second task type."""
    from annotation.models import Assignment
    from annotation.services.items import unit_submit
    from annotation.services.judging import judging_plan
    from annotation.services.judgments import judgment_record
    from tests.annotation.task_types.nli.world import SIX, make_nli_project, writing_assignment

    world = make_nli_project(slug="nli", annotators=5, expert=True, qc_review=False)
    authoring = writing_assignment(world)
    item = unit_submit(assignment_id=authoring.pk, user=authoring.user, data={"items": SIX})[0]
    judging_plan(project=world.project)
    validate = Assignment.objects.filter(target_item=item, kind="validate").order_by("id").first()
    judgment = judgment_record(
        assignment_id=validate.pk, user=validate.user, data={"label": "e", "correction": "Gunungsitoli di Nias."}
    )
    run = ExportRun.objects.create(project=world.project, format="jsonl", path="exports/nli/run-x")
    UserFactory(username="wati")
    invitation = invitation_create(project=world.project, username="wati", role="annotator", invited_by=world.admin)
    left = next(u for u in world.annotators if u.pk not in (authoring.user_id, validate.user_id))
    membership_deactivate(membership=Membership.objects.get(project=world.project, user=left))
    values = {
        "slug": "nli",
        "membership_id": Membership.objects.get(project=world.project, user=validate.user).pk,
        "item_id": item.pk,
        "concept_id": world.project.concepts.order_by("pk").first().pk,
        "assignment_id": validate.pk,
        "run_id": run.pk,
        "name": "test.jsonl",
        "invitation_id": invitation.pk,
        "judgment_id": judgment.pk,
        "call_id": _llm_call(world.project).pk,
    }
    outsiders = {
        "other admin": other_project.admin,
        "other reviewer": other_project.reviewer,
        "other annotator": other_project.annotators[0],
        "former member": left,
    }
    return values, outsiders


def test_outsiders_get_404_on_every_nli_route_and_change_nothing(nli_world):
    _outsiders_matrix(*nli_world)


def test_outsiders_get_404_on_every_route_and_change_nothing(demo_world):
    _outsiders_matrix(*demo_world)


def _outsiders_matrix(values, outsiders):
    routes = guarded_routes()
    missing = {m for route, _ in routes for m in _PARAM.findall(route)} - set(values)
    assert missing == set(), f"give the matrix an object for {sorted(missing)}"
    clients = {}
    for label, user in outsiders.items():
        clients[label] = (Client(), APIClient())
        for client in clients[label]:
            client.force_login(user)
    before = db_state()

    seen, expected = {}, {}
    for label, (page, api) in clients.items():
        for route, pattern in routes:
            url = _url(route, values)
            is_api = route.startswith("api/")
            for method in METHODS:
                if is_api:
                    response = getattr(api, method)(url, {}, format="json")
                    # A method the view does not have may answer 405 (nothing looked up) or 404.
                    allowed = {404} if hasattr(pattern.callback.cls, method) else {404, 405}
                else:
                    response = getattr(page, method)(url, {})
                    allowed = {404, 405}  # a page refuses a method it doesn't serve before any lookup
                seen[(label, route, method)] = response.status_code
                expected[(label, route, method)] = response.status_code if response.status_code in allowed else allowed

    assert seen == expected
    assert db_state() == before


def test_anonymous_callers_are_refused_everywhere_and_change_nothing(demo_world):
    values, _ = demo_world
    before = db_state()

    refused = {}
    for route, _pattern in guarded_routes():
        url = _url(route, values)
        for method in METHODS:
            client = APIClient() if route.startswith("api/") else Client()
            response = getattr(client, method)(url, {})
            ok = response.status_code in (401, 403, 405) or (
                response.status_code == 302 and response.url.startswith("/accounts/login/")
            )
            if not ok:
                refused[(route, method)] = response.status_code

    assert refused == {}
    assert db_state() == before


def test_a_project_admin_reads_and_edits_only_the_profile_given_to_their_project(csqa, other_project):
    """The probe's case: an admin of project B added a member of project A and overwrote their region."""
    person = other_project.annotators[0]
    theirs = Membership.objects.get(project=other_project.project, user=person)
    client = APIClient()
    client.force_login(other_project.admin)
    client.put(
        f"/api/projects/other/members/{theirs.pk}/profile/", {"region": "Garut", "education": "S1"}, format="json"
    )
    # demo's admin invites the same person; they accept and tell demo something else.
    invitation = invitation_create(
        project=csqa.project, username=person.username, role="annotator", invited_by=csqa.admin
    )
    person_client = APIClient()
    person_client.force_login(person)
    assert person_client.post(f"/api/invitations/{invitation.pk}/accept/").status_code == 200
    ours = Membership.objects.get(project=csqa.project, user=person)
    demo_admin = APIClient()
    demo_admin.force_login(csqa.admin)

    shown = demo_admin.get(f"/api/projects/demo/members/{ours.pk}/profile/").json()
    demo_admin.put(f"/api/projects/demo/members/{ours.pk}/profile/", {"region": "Bandung"}, format="json")
    other_view = client.get(f"/api/projects/other/members/{theirs.pk}/profile/").json()
    foreign = demo_admin.get(f"/api/projects/demo/members/{theirs.pk}/profile/")

    assert (shown["region"], shown["education"]) == ("", "")
    assert (other_view["region"], other_view["education"]) == ("Garut", "S1")
    assert foreign.status_code == 404
    assert Item.objects.count() == 0
    assert Invitation.objects.get(pk=invitation.pk).status == "accepted"
