"""The busiest pages make the same number of queries for a small project and one ten times bigger."""

import pytest
from django.urls import reverse

from annotation.models import Assignment, Item
from annotation.services.assignments import assignment_plan_authoring
from annotation.services.items import item_submit
from qc.services import review_approve, review_request_revision
from tests.factories import make_csqa_project

pytestmark = pytest.mark.django_db

SIZES = {
    "small": {"categories": 2, "concepts_per_category": 3},
    "ten_times": {"categories": 4, "concepts_per_category": 15},
}
# 13 + 4: the project's languages (the item's language picker), the autosaved draft, the judging
# link's count (one tally read).
AUTHOR_PAGE_QUERIES = 17  # + the project language that gives the item fields their direction
REVIEW_PAGE_QUERIES = 10  # + the item language shown beside the decision
# 10 + qc.overview: items and judgments per day 2, time spent 2, agreement 2; + the aggregation fit and abilities 2
DASHBOARD_QUERIES = 18


def payload_for(concept_name: str, answer: str = "A") -> dict:
    return {
        "question": f"Apa yang orang lakukan dengan {concept_name} di kampung?",
        "choices": ["Pagi", "Siang", "Sore", "Malam", "Subuh"],
        "answer": answer,
    }


def busy_project(size: str):
    """Every assignment submitted; every second item sent back (then revised), the rest approved."""
    csqa = make_csqa_project(slug=size.replace("_", "-"), annotators=3, **SIZES[size])
    assignment_plan_authoring(project=csqa.project)
    for n, assignment in enumerate(Assignment.objects.filter(project=csqa.project).select_related("concept", "user")):
        item = item_submit(assignment_id=assignment.pk, user=assignment.user, data=payload_for(assignment.concept.name))
        if n % 2:
            review_approve(item_id=item.pk, version_id=item.current_version_id, reviewer=csqa.reviewer)
            continue
        review_request_revision(
            item_id=item.pk,
            version_id=item.current_version_id,
            reviewer=csqa.reviewer,
            feedback="Perbaiki.",
            error_type_codes=["typo", "fluency"],
        )
        if n % 4 == 0:
            item_submit(
                assignment_id=assignment.pk, user=assignment.user, data=payload_for(assignment.concept.name, "B")
            )
    return csqa


@pytest.mark.parametrize("size", SIZES)
def test_author_page_queries_do_not_grow(size, client, django_assert_max_num_queries):
    csqa = busy_project(size)
    item = Item.objects.filter(project=csqa.project, status=Item.Status.REVISION_REQUESTED).order_by("id").first()
    client.force_login(item.author)
    url = reverse("author_item", args=[csqa.project.slug, item.assignment_id])

    with django_assert_max_num_queries(AUTHOR_PAGE_QUERIES):
        response = client.get(url)

    assert response.status_code == 200
    assert 'id="last-review-feedback">Perbaiki.</p>' in response.content.decode()


@pytest.mark.parametrize("size", SIZES)
def test_review_page_queries_do_not_grow(size, client, django_assert_max_num_queries):
    csqa = busy_project(size)
    item = Item.objects.filter(project=csqa.project, status=Item.Status.SUBMITTED).order_by("id").first()
    client.force_login(csqa.reviewer)

    with django_assert_max_num_queries(REVIEW_PAGE_QUERIES):
        response = client.get(reverse("review_item", args=[csqa.project.slug, item.pk]))

    assert response.status_code == 200
    assert "<h2>Changes since version 1</h2>" in response.content.decode()


@pytest.mark.parametrize("size", SIZES)
def test_dashboard_queries_do_not_grow(size, client, django_assert_max_num_queries):
    csqa = busy_project(size)
    client.force_login(csqa.admin)

    with django_assert_max_num_queries(DASHBOARD_QUERIES):
        response = client.get(reverse("dashboard", args=[csqa.project.slug]))

    assert response.status_code == 200
