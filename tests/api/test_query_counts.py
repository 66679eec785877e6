"""Next-assignment and submit cost the same number of queries whatever the project's size."""

import pytest

from annotation.services.assignments import assignment_plan_authoring
from tests.api.conftest import client_for
from tests.factories import make_csqa_project

pytestmark = pytest.mark.django_db

# Token and user, membership, the claim (one statement), the assignment read back for the response.
MAX_QUERIES_NEXT = 4
# 16 + the new item's default language (the project's first) + dropping the assignment's autosaved draft
MAX_QUERIES_SUBMIT = 18


@pytest.mark.postgres  # the counts of PostgreSQL's one-statement claim and tallies
@pytest.mark.parametrize("concepts_per_category", [10, 100])
def test_next_and_submit_query_counts_do_not_grow_with_the_project(
    concepts_per_category, django_assert_max_num_queries
):
    setup = make_csqa_project(
        slug=f"size{concepts_per_category}", categories=5, concepts_per_category=concepts_per_category
    )
    assert setup.project.concepts.count() == 5 * concepts_per_category
    assignment_plan_authoring(project=setup.project)
    client = client_for(setup.annotators[0])
    base = f"/api/projects/{setup.project.slug}"
    # A first round trip so per-connection work (e.g. type lookups) isn't counted.
    warm = client.post(f"{base}/assignments/next/", {"kind": "author"}, format="json").json()
    payload = {
        "question": f"Apa arti {warm['concept']['name']} di kampung?",
        "choices": ["satu", "dua", "tiga", "empat", "lima"],
        "answer": "B",
    }
    assert (
        client.post(f"{base}/assignments/{warm['id']}/submit/", {"payload": payload}, format="json").status_code == 200
    )

    with django_assert_max_num_queries(MAX_QUERIES_NEXT):
        response = client.post(f"{base}/assignments/next/", {"kind": "author"}, format="json")
    assert response.status_code == 200
    assignment = response.json()
    payload["question"] = f"Apa arti {assignment['concept']['name']} di kampung?"
    with django_assert_max_num_queries(MAX_QUERIES_SUBMIT):
        submitted = client.post(f"{base}/assignments/{assignment['id']}/submit/", {"payload": payload}, format="json")
    assert (submitted.status_code, submitted.json()["status"]) == (200, "submitted")
