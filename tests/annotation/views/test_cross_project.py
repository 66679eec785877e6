"""Every project page tried by an outsider: 404 (or a redirect to login when anonymous), nothing changed."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from annotation.models import Membership
from annotation.services.projects import membership_deactivate
from tests.annotation.views.helpers import author_post, db_snapshot, submitted_item
from tests.conftest import VALID_PAYLOAD

pytestmark = pytest.mark.django_db

# Pages that only answer GET refuse other methods with 405 before looking anything up, for everyone
# (so the answer reveals nothing); the POST-only planning action does the same for GET.
GET_ONLY = {"project_detail", "author_queue", "item_list", "item_detail", "dashboard"}
POST_ONLY = {"plan_authoring"}


def demo_pages(csqa):
    """(name, url, POST body) for every page of the project "demo", with ids of its real objects."""
    item = submitted_item(csqa, VALID_PAYLOAD)
    admin_membership = Membership.objects.get(project=csqa.project, user=csqa.admin)
    member = Membership.objects.get(project=csqa.project, user=csqa.annotators[2])
    decision = {"version_id": item.current_version_id, "decision": "approve", "feedback": "ok"}
    settings = {
        "name": "Hijacked",
        "languages": "ar Arabic rtl",
        "authors_per_concept": "1",
        "answerers_per_item": "1",
        "ambiguity_threshold": "0",
        "plan_seed": "9",
    }
    return [
        ("project_detail", "/p/demo/", {}),
        ("project_settings", "/p/demo/settings/", settings),
        ("project_members", "/p/demo/members/", {"action": "deactivate", "membership_id": admin_membership.pk}),
        ("member_profile", f"/p/demo/members/{member.pk}/profile/", {"region": "Hijacked"}),
        ("project_concepts", "/p/demo/concepts/", "file"),
        ("plan_authoring", "/p/demo/plan/", {}),
        ("author_queue", "/p/demo/author/", {}),
        ("author_item", f"/p/demo/author/{item.assignment_id}/", author_post(VALID_PAYLOAD, action="save")),
        ("item_list", "/p/demo/items/", {}),
        ("item_detail", f"/p/demo/items/{item.pk}/", {}),
        ("review_queue", "/p/demo/review/", {}),
        ("review_item", f"/p/demo/review/{item.pk}/", decision),
        ("dashboard", "/p/demo/dashboard/", {}),
    ]


def body(data):
    if data == "file":
        return {"file": SimpleUploadedFile("c.csv", b"category,concept\nplace,pasar\n")}
    return data


def test_outsiders_get_404_and_change_nothing(csqa, other_project):
    pages = demo_pages(csqa)
    left = csqa.annotators[1]
    membership_deactivate(membership=Membership.objects.get(project=csqa.project, user=left))
    outsiders = {
        "other admin": other_project.admin,
        "other reviewer": other_project.reviewer,
        "other annotator": other_project.annotators[0],
        "former member": left,
    }
    clients = {}
    for label, user in outsiders.items():
        clients[label] = Client()
        clients[label].force_login(user)
    before = db_snapshot()

    seen, expected = {}, {}
    for label, client in clients.items():
        for name, url, data in pages:
            seen[(label, name, "GET")] = client.get(url).status_code
            seen[(label, name, "POST")] = client.post(url, body(data)).status_code
            expected[(label, name, "GET")] = 405 if name in POST_ONLY else 404
            expected[(label, name, "POST")] = 405 if name in GET_ONLY else 404

    assert seen == expected
    assert db_snapshot() == before


def test_anonymous_users_are_sent_to_login_and_change_nothing(csqa, client):
    pages = demo_pages(csqa)
    before = db_snapshot()

    seen = {}
    for name, url, data in pages:
        get, post = client.get(url), client.post(url, body(data))
        seen[name] = (get.status_code, get.url, post.status_code, post.url)

    assert seen == {
        name: (302, f"/accounts/login/?next={url}", 302, f"/accounts/login/?next={url}") for name, url, _ in pages
    }
    assert db_snapshot() == before


def test_home_does_not_list_other_projects(csqa, other_project):
    client = Client()
    client.force_login(other_project.admin)

    html = client.get("/").content.decode()

    assert "/p/other/" in html
    assert "/p/demo/" not in html
