"""Each task type's own settings on the project pages and the API: fields from its settings_spec."""

import pytest
from django.urls import reverse

from annotation.models import Project
from annotation.services.projects import project_create
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

NLI_CORE = {
    "name": "IndoNLI lay",
    "languages": "id Bahasa Indonesia ltr",
    "guidelines": "",
    "authors_per_concept": "1",
    "plan_seed": "3",
}


def _nli_project(admin):
    return project_create(
        creator=admin, name="IndoNLI lay", slug="indonli-lay", task_type="nli", languages=[{"code": "id"}]
    )


def test_settings_page_shows_and_saves_the_projects_own_task_type_settings(client):
    admin = UserFactory()
    project = _nli_project(admin)
    client.force_login(admin)
    url = reverse("project_settings", args=[project.slug])

    html = client.get(url).content.decode()
    assert 'name="validation_percent"' in html and 'name="qc_review"' in html
    assert 'name="answerers_per_item"' not in html

    # qc_review left unticked: a checkbox posts nothing, which means off.
    response = client.post(
        url,
        {
            **NLI_CORE,
            "annotator_type": "lay",
            "validation_percent": "40",
            "premises_per_document": "5",
            "paragraph_word_limit": "200",
        },
    )

    assert response.status_code == 302
    project.refresh_from_db()
    assert project.settings == {
        "annotator_type": "lay",
        "validation_percent": 40,
        "premises_per_document": 5,
        "paragraph_word_limit": 200,
        "qc_review": False,
    }


def test_settings_page_refuses_an_out_of_range_setting_and_changes_nothing(client):
    admin = UserFactory()
    project = _nli_project(admin)
    before = dict(project.settings)
    client.force_login(admin)

    response = client.post(
        reverse("project_settings", args=[project.slug]),
        {
            **NLI_CORE,
            "annotator_type": "lay",
            "validation_percent": "140",
            "premises_per_document": "5",
            "paragraph_word_limit": "200",
            "qc_review": "on",
        },
    )

    assert response.status_code == 400
    assert "Ensure this value is less than or equal to 100." in response.content.decode()
    project.refresh_from_db()
    assert project.settings == before


def test_create_page_takes_the_chosen_task_types_settings_and_refuses_a_bad_one(client):
    client.force_login(UserFactory(is_staff=True))
    form = {**NLI_CORE, "slug": "nli-x", "task_type": "nli", "annotator_type": "expert"}

    refused = client.post(reverse("project_create"), {**form, "annotator_type": "guru"})
    assert refused.status_code == 400
    assert "Select a valid choice. guru is not one of the available choices." in refused.content.decode()
    assert not Project.objects.filter(slug="nli-x").exists()

    created = client.post(reverse("project_create"), form)
    assert created.status_code == 302
    project = Project.objects.get(slug="nli-x")
    assert (project.task_settings["annotator_type"], project.task_settings["validation_percent"]) == ("expert", 100)


def test_api_repeats_the_task_type_settings_at_the_top_level_and_takes_them_there_or_in_settings():
    from rest_framework.test import APIClient

    staff = UserFactory(is_staff=True)
    api = APIClient()
    api.force_authenticate(staff)

    created = api.post(
        "/api/projects/",
        {
            "name": "NLI",
            "slug": "nli-api",
            "task_type": "nli",
            "languages": [{"code": "id"}],
            "settings": {"annotator_type": "expert"},
            "qc_review": False,
        },
        format="json",
    )
    assert created.status_code == 201, created.content
    body = created.json()
    assert body["settings"] == {
        "annotator_type": "expert",
        "validation_percent": 100,
        "premises_per_document": 5,
        "paragraph_word_limit": 200,
        "qc_review": False,
    }
    assert (body["annotator_type"], body["qc_review"]) == ("expert", False)
    assert "answerers_per_item" not in body

    refused = api.patch("/api/projects/nli-api/", {"answerers_per_item": 3}, format="json")
    assert refused.status_code == 400
    assert "answerers_per_item" in refused.json()["detail"]
    unknown = api.patch("/api/projects/nli-api/", {"settings": {"judges": 3}}, format="json")
    assert unknown.status_code == 400
    assert Project.objects.get(slug="nli-api").settings == body["settings"]
