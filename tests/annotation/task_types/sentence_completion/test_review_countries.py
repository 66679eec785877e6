"""A reviewer's countries are part of their membership: set by an admin on a page or through the API."""

import re

import pytest
from django.urls import reverse

from annotation.models import Membership
from annotation.task_types import get_task_type
from tests.annotation.task_types.sentence_completion.world import make_world

pytestmark = pytest.mark.django_db


def test_an_admin_sets_a_reviewers_countries_on_the_page_and_the_api(client):
    world = make_world()
    reviewer = Membership.objects.get(project=world.project, user=world.reviewers["Egypt"])
    client.force_login(world.admin)

    client.post(reverse("member_countries", args=[world.project.slug, reviewer.pk]), {"countries": ["Egypt", "Sudan"]})
    assert Membership.objects.get(pk=reviewer.pk).countries == ["Egypt", "Sudan"]

    url = f"/api/projects/{world.project.slug}/members/{reviewer.pk}/countries/"
    response = client.put(url, {"countries": ["KSA"]}, content_type="application/json")
    assert (response.status_code, response.json()) == (200, {"countries": ["KSA"]})
    refused = client.put(url, {"countries": ["x" * 101]}, content_type="application/json")
    assert refused.status_code == 400 and Membership.objects.get(pk=reviewer.pk).countries == ["KSA"]


def test_nobody_else_sets_them(client):
    world = make_world()
    reviewer = Membership.objects.get(project=world.project, user=world.reviewers["Egypt"])
    client.force_login(world.reviewers["Egypt"])

    page = client.post(reverse("member_countries", args=[world.project.slug, reviewer.pk]), {"countries": ["KSA"]})
    api = client.put(
        f"/api/projects/{world.project.slug}/members/{reviewer.pk}/countries/",
        {"countries": ["KSA"]},
        content_type="application/json",
    )

    assert (page.status_code, api.status_code) == (404, 403)
    assert Membership.objects.get(pk=reviewer.pk).countries == ["Egypt"]


def test_the_members_page_links_the_reviewers_countries_and_the_nav_the_screening(client):
    world = make_world()
    members = {m.user_id: m.pk for m in Membership.objects.filter(project=world.project)}
    client.force_login(world.admin)

    html = client.get(reverse("project_members", args=[world.project.slug])).content.decode()

    slug = world.project.slug
    linked = {pk for pk in members.values() if f'id="countries-{pk}"' in html}
    reviewers_and_admin = {members[u.pk] for u in [*world.reviewers.values(), world.admin]}
    assert linked == reviewers_and_admin
    for pk in linked:
        assert f'href="/p/{slug}/members/{pk}/countries/" id="countries-{pk}"' in html
    assert f'href="/p/{slug}/screening/setup/" id="nav-screening-setup"' in html


def test_the_page_offers_the_task_types_countries_as_choices_and_refuses_any_other(client):
    world = make_world()
    reviewer = Membership.objects.get(project=world.project, user=world.reviewers["Egypt"])
    url = reverse("member_countries", args=[world.project.slug, reviewer.pk])
    client.force_login(world.admin)

    page = client.get(url).content.decode()
    refused = client.post(url, {"countries": ["Sudan", "Atlantis"]})

    offered = re.findall(r'name="countries" value="([^"]+)"', page)
    assert offered == list(get_task_type(world.project.task_type).country_scope.countries)
    assert re.findall(r'name="countries" value="([^"]+)"[^>]*checked', page) == ["Egypt"]
    assert 'textarea name="countries"' not in page
    assert refused.status_code == 400
    assert "Atlantis is not one of this project&#x27;s countries." in refused.content.decode()
    assert Membership.objects.get(pk=reviewer.pk).countries == ["Egypt"]
