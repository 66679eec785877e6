import pytest
from django.urls import reverse

from annotation.models import Assignment, Membership, Project
from qc.models import ErrorType
from tests.annotation.views.helpers import db_snapshot
from tests.factories import UserFactory, make_csqa_project

pytestmark = pytest.mark.django_db

NEW_PROJECT = {
    "name": "Sundanese CSQA",
    "slug": "su-csqa",
    "languages": "su Basa Sunda ltr\nid Bahasa Indonesia\nar Arabic rtl",
    "task_type": "csqa",
    "guidelines": "# Pedoman\nTulis patarosan.",
    "authors_per_concept": "2",
    "answerers_per_item": "5",
    "ambiguity_threshold": "3",
    "plan_seed": "7",
}


def test_create_page_offers_the_registered_task_types(client):
    client.force_login(UserFactory(is_staff=True))

    html = client.get(reverse("project_create")).content.decode()

    assert '<option value="csqa">Commonsense QA (question + 5 options)</option>' in html
    assert 'name="languages"' in html


def test_staff_creates_a_project_with_languages_and_becomes_admin(client):
    staff = UserFactory(is_staff=True)
    client.force_login(staff)

    response = client.post(reverse("project_create"), NEW_PROJECT)

    assert (response.status_code, response.url) == (302, "/p/su-csqa/")
    project = Project.objects.get(slug="su-csqa")
    assert (project.name, project.task_type, project.plan_seed) == ("Sundanese CSQA", "csqa", 7)
    task_settings = project.task_settings
    assert (
        project.authors_per_concept,
        task_settings["answerers_per_item"],
        task_settings["ambiguity_threshold"],
    ) == (2, 5, 3)
    assert list(project.languages.values_list("code", "name", "direction")) == [
        ("su", "Basa Sunda", "ltr"),
        ("id", "Bahasa Indonesia", "ltr"),
        ("ar", "Arabic", "rtl"),
    ]
    assert list(Membership.objects.filter(project=project).values_list("user_id", "role")) == [(staff.pk, "admin")]
    assert ErrorType.objects.filter(project=project).count() == 11


def test_non_staff_cannot_create_projects(client):
    client.force_login(UserFactory())
    before = db_snapshot()

    assert client.get(reverse("project_create")).status_code == 404
    assert client.post(reverse("project_create"), NEW_PROJECT).status_code == 404
    assert db_snapshot() == before


def test_taken_slug_is_refused_with_a_message_and_nothing_created(client):
    make_csqa_project(slug="su-csqa")
    client.force_login(UserFactory(is_staff=True))
    before = db_snapshot()

    response = client.post(reverse("project_create"), NEW_PROJECT)

    html = response.content.decode()
    assert response.status_code == 400
    assert "A project with the address “su-csqa” already exists." in html
    assert '<p class="error" role="alert">Already taken.</p>' in html
    assert db_snapshot() == before


def test_repeated_language_code_is_refused_next_to_the_field(client):
    client.force_login(UserFactory(is_staff=True))
    before = db_snapshot()

    response = client.post(reverse("project_create"), {**NEW_PROJECT, "languages": "id Indonesian\nid Again"})

    assert response.status_code == 400
    assert '<p class="error" role="alert">The code “id” appears more than once.</p>' in response.content.decode()
    assert db_snapshot() == before


def test_detail_adapts_to_the_role(csqa, client):
    client.force_login(csqa.annotators[0])
    annotator_html = client.get(reverse("project_detail", args=["demo"])).content.decode()
    client.force_login(csqa.reviewer)
    reviewer_html = client.get(reverse("project_detail", args=["demo"])).content.decode()
    client.force_login(csqa.admin)
    admin_html = client.get(reverse("project_detail", args=["demo"])).content.decode()

    assert 'id="stage-authoring-author_queue" href="/p/demo/author/"' in annotator_html
    assert "/p/demo/review/" not in annotator_html
    assert "/p/demo/members/" not in annotator_html
    review_link = '<a class="button primary" id="stage-review-review_queue" href="/p/demo/review/">Review queue</a>'
    assert review_link in reviewer_html
    assert "/p/demo/members/" not in reviewer_html
    assert 'id="plan-button"' not in reviewer_html
    assert 'id="plan-button"' in admin_html
    assert "1 admins · 1 reviewers · 3 annotators" in admin_html
    assert '<span dir="auto">cat0</span>: 3' in admin_html


def test_settings_update_the_project(csqa, client):
    client.force_login(csqa.admin)
    data = {
        "name": "Renamed",
        "languages": "ar Arabic rtl\nid Indonesian ltr",
        "guidelines": "New *rules*",
        "authors_per_concept": "3",
        "answerers_per_item": "4",
        "ambiguity_threshold": "2",
        "judging_mode": "fixed",
        "adaptive_confidence": "99",
        "adaptive_min_judges": "2",
        "plan_seed": "11",
    }

    response = client.post(reverse("project_settings", args=["demo"]), data, follow=True)

    project = Project.objects.get(slug="demo")
    assert response.redirect_chain == [("/p/demo/settings/", 302)]
    assert "Settings saved." in response.content.decode()
    assert (project.name, project.guidelines, project.authors_per_concept, project.plan_seed) == (
        "Renamed",
        "New *rules*",
        3,
        11,
    )
    assert list(project.languages.values_list("code", "direction")) == [("ar", "rtl"), ("id", "ltr")]
    # The chrome follows the UI language (English here); the project's first language (ar, rtl) goes
    # on the containers that show its content.
    assert '<html lang="en" dir="ltr">' in response.content.decode()


def test_settings_refuse_invalid_numbers_and_change_nothing(csqa, client):
    client.force_login(csqa.admin)
    before = db_snapshot()

    response = client.post(
        reverse("project_settings", args=["demo"]),
        {
            "name": "X",
            "languages": "id Indonesian",
            "authors_per_concept": "0",
            "answerers_per_item": "5",
            "ambiguity_threshold": "3",
            "plan_seed": "0",
        },
    )

    assert response.status_code == 400
    assert "Ensure this value is greater than or equal to 1." in response.content.decode()
    assert db_snapshot() == before


def test_settings_are_admin_only(csqa, client):
    client.force_login(csqa.reviewer)

    assert client.get(reverse("project_settings", args=["demo"])).status_code == 404


def test_plan_authoring_shows_the_summary(csqa, client):
    client.force_login(csqa.admin)

    response = client.post(reverse("plan_authoring", args=["demo"]), follow=True)

    assert response.redirect_chain == [("/p/demo/", 302)]
    assert (
        "Authoring planned: 6 concepts for 3 annotators; 12 assignments created, 0 kept, 0 removed, 0 re-activated."
        in response.content.decode()
    )
    assert Assignment.objects.filter(project=csqa.project).count() == 12


def test_plan_authoring_refusal_shows_the_reason_and_plans_nothing(client):
    small = make_csqa_project(slug="small", annotators=1)
    client.force_login(small.admin)
    before = db_snapshot()

    response = client.post(reverse("plan_authoring", args=["small"]), follow=True)

    assert "Planning needs at least 2 active annotators (authors per concept); the project has 1." in (
        response.content.decode()
    )
    assert db_snapshot() == before


def test_plan_authoring_needs_post(csqa, client):
    client.force_login(csqa.admin)

    assert client.get(reverse("plan_authoring", args=["demo"])).status_code == 405
    assert Assignment.objects.count() == 0
