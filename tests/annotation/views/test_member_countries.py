"""The review countries page offers the countries the project's profiles use, as ticks, not free text."""

import re

import pytest
from django.urls import reverse

from annotation.models import AnnotatorProfile, Membership
from tests.factories import MembershipFactory, ProfileFactory, make_csqa_project

pytestmark = pytest.mark.django_db


def test_without_a_task_type_list_the_choices_are_the_profiles_countries(client):
    world = make_csqa_project(slug="countries")
    for user, country in zip(world.annotators, ["Indonesia", "Malaysia", ""], strict=True):
        AnnotatorProfile.objects.update_or_create(
            membership=Membership.objects.get(project=world.project, user=user), defaults={"country": country}
        )
    ProfileFactory(membership=MembershipFactory(), country="Brunei")  # another project's profile
    reviewer = Membership.objects.get(project=world.project, user=world.reviewer)
    url = reverse("member_countries", args=[world.project.slug, reviewer.pk])
    client.force_login(world.admin)

    page = client.get(url).content.decode()
    saved = client.post(url, {"countries": ["Malaysia"]})
    refused = client.post(url, {"countries": ["Brunei"]})

    assert re.findall(r'name="countries" value="([^"]+)"', page) == ["Indonesia", "Malaysia"]
    assert saved.status_code == 302
    assert refused.status_code == 400
    assert "Brunei is not one of this project&#x27;s countries." in refused.content.decode()
    assert Membership.objects.get(pk=reviewer.pk).countries == ["Malaysia"]


def test_a_project_whose_profiles_give_no_country_says_so(client):
    world = make_csqa_project(slug="nocountry")
    reviewer = Membership.objects.get(project=world.project, user=world.reviewer)
    client.force_login(world.admin)

    page = client.get(reverse("member_countries", args=[world.project.slug, reviewer.pk])).content.decode()

    assert 'id="no-countries">No member of this project has given a country yet.' in page
    assert 'name="countries"' not in page
