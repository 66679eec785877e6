"""The catalog page: list and search concepts in keyset pages, edit one, retire it from planning."""

import pytest
from django.urls import reverse

from annotation.errors import IllegalTransition, NotAllowed
from annotation.models import Assignment, Category, Concept
from annotation.selectors.concepts import concept_page
from annotation.services.assignments import assignment_plan_authoring
from annotation.services.concepts import concept_set_retired, concept_update
from tests.annotation.views.helpers import db_snapshot

pytestmark = pytest.mark.django_db


def _names(page):
    return [c.name for c in page.concepts]


def test_search_by_text_and_category_in_keyset_pages(csqa):
    project = csqa.project
    cat1 = Category.objects.get(project=project, name="cat1")

    first = concept_page(project=project, size=4)
    second = concept_page(project=project, size=4, after=first.next_after)

    assert _names(first) == ["kunjung", "konsep0x1", "konsep0x2", "kunjung"]
    assert (_names(second), second.next_after) == (["konsep1x1", "konsep1x2"], None)
    assert _names(concept_page(project=project, q="X2")) == ["konsep0x2", "konsep1x2"]
    assert _names(concept_page(project=project, q="cat1")) == ["kunjung", "konsep1x1", "konsep1x2"]
    assert _names(concept_page(project=project, q="konsep", category_id=cat1.pk)) == ["konsep1x1", "konsep1x2"]


def test_page_lists_searches_and_pages_with_the_search_kept(csqa, client, django_assert_max_num_queries):
    client.force_login(csqa.admin)
    url = reverse("project_concepts", args=["demo"])

    with django_assert_max_num_queries(15):
        html = client.get(url, {"q": "konsep"}).content.decode()

    assert html.count('id="concept-') - html.count('id="concept-search') - html.count('id="concept-catalog') > 0
    for concept in Concept.objects.filter(project=csqa.project):
        assert (f'<tr id="concept-{concept.pk}"' in html) == concept.name.startswith("konsep")


def test_admin_edits_a_concept_into_a_new_category(csqa, client):
    client.force_login(csqa.admin)
    concept = Concept.objects.get(project=csqa.project, name="konsep0x1")

    response = client.post(
        reverse("concept_edit", args=["demo", concept.pk]), {"name": "rendang", "category": "kuliner"}
    )

    assert response.status_code == 302
    concept.refresh_from_db()
    assert (concept.name, concept.category.name, concept.category.project_id) == ("rendang", "kuliner", csqa.project.pk)


def test_edit_clash_and_non_admins_are_refused_with_nothing_changed(csqa, client):
    concept = Concept.objects.get(project=csqa.project, name="konsep0x1")
    before = db_snapshot()
    before_concepts = list(Concept.objects.order_by("pk").values())

    client.force_login(csqa.admin)
    response = client.post(
        reverse("concept_edit", args=["demo", concept.pk]), {"name": "konsep0x2", "category": "cat0"}
    )
    assert response.status_code == 400
    assert "The category “cat0” already has a concept “konsep0x2”." in response.content.decode()

    client.force_login(csqa.reviewer)
    assert (
        client.post(reverse("concept_edit", args=["demo", concept.pk]), {"name": "x", "category": "y"}).status_code
        == 404
    )
    assert client.post(reverse("concept_retire", args=["demo", concept.pk]), {"retire": "1"}).status_code == 404
    with pytest.raises(NotAllowed, match="Only a project admin can change the catalog."):
        concept_update(concept=concept, user=csqa.reviewer, name="x", category="y")
    with pytest.raises(NotAllowed):
        concept_set_retired(concept=concept, user=csqa.annotators[0], retired=True)
    with pytest.raises(IllegalTransition, match="The concept is not retired."):
        concept_set_retired(concept=concept, user=csqa.admin, retired=False)

    after = db_snapshot()
    after.pop("User"), before.pop("User")  # logging in sets last_login
    assert after == before
    assert list(Concept.objects.order_by("pk").values()) == before_concepts
    assert Category.objects.filter(name="y").count() == 0


def test_a_retired_concept_gets_no_new_assignments_and_comes_back(csqa, client):
    project = csqa.project
    retired = Concept.objects.get(project=project, name="konsep1x2")
    client.force_login(csqa.admin)

    response = client.post(reverse("concept_retire", args=["demo", retired.pk]), {"retire": "1", "back": "q=konsep"})

    assert (
        response.status_code == 302 and response["Location"] == reverse("project_concepts", args=["demo"]) + "?q=konsep"
    )
    retired.refresh_from_db()
    assert retired.retired_at is not None
    assert "konsep1x2" not in _names(concept_page(project=project))
    assert _names(concept_page(project=project, state="retired")) == ["konsep1x2"]

    summary = assignment_plan_authoring(project=project)

    # 5 active concepts x 2 authors each; none on the retired one.
    assert (summary.units, summary.created) == (5, 10)
    assert not Assignment.objects.filter(project=project, concept=retired).exists()

    client.post(reverse("concept_retire", args=["demo", retired.pk]), {"retire": "0"})
    retired.refresh_from_db()
    assert retired.retired_at is None
    summary = assignment_plan_authoring(project=project)
    assert (summary.units, summary.created, summary.kept) == (6, 2, 10)
    assert Assignment.objects.filter(project=project, concept=retired).count() == 2
