"""Next assignment + submit over the API cost the same number of queries whatever the project's size."""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from annotation.models import Assignment, Category, Concept, Item, Membership
from annotation.services.assignments import assignment_plan_authoring
from annotation.services.projects import membership_add, project_create

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]

User = get_user_model()
MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"
ANNOTATORS = 4
# Session, user, membership, the claim (one UPDATE ... RETURNING statement, no BEGIN/COMMIT), the
# assignment read back for the response.
NEXT_QUERIES = 5
# Session, user, membership, assignment; in one transaction: lock assignment and item, insert item and
# version, point the item at it, freeze the version, mark item and assignment; then the item's detail
# with its versions and reviews for the response.
SUBMIT_QUERIES = 19  # 17 + the project's languages (the new item's language) + the autosaved draft dropped
# Session, user, membership, the claim that finds nothing.
EMPTY_QUEUE_QUERIES = 4


def _annotator(username: str):
    user = User(username=username)
    user.set_unusable_password()
    user.save()
    return user


def _project(concepts: int):
    admin = _annotator("qc-admin")
    project = project_create(
        creator=admin,
        name="Query counts",
        slug="qc",
        task_type="csqa",
        languages=[{"code": "id", "name": "Indonesian"}],
        authors_per_concept=2,
    )
    annotators = [_annotator(f"qc-ann{i}") for i in range(ANNOTATORS)]
    for i, user in enumerate(annotators):
        membership_add(project=project, user=user, role=Membership.Role.ANNOTATOR, code=f"W{i + 1}")
    categories = Category.objects.bulk_create(Category(project=project, name=f"cat{c}") for c in range(5))
    Concept.objects.bulk_create(
        Concept(project=project, category=categories[n % 5], name=f"konsep{n:05d}") for n in range(concepts)
    )
    assignment_plan_authoring(project=project)
    return project, annotators


def _payload(concept: str) -> dict:
    return {
        "payload": {
            "question": f"Di mana orang biasanya menemukan {concept}?",
            "choices": ["Di pasar", "Di sawah", "Di laut", "Di gunung", "Di kota"],
            "answer": "A",
        },
        "justification": "",
    }


def _next_and_submit(client: Client, slug: str, assert_max_queries) -> int:
    with assert_max_queries(NEXT_QUERIES):
        response = client.post(f"/api/projects/{slug}/assignments/next/", {"kind": "author"}, "application/json")
    assert response.status_code == 200, response.content
    claimed = response.json()
    with assert_max_queries(SUBMIT_QUERIES):
        response = client.post(
            f"/api/projects/{slug}/assignments/{claimed['id']}/submit/",
            _payload(claimed["concept"]["name"]),
            "application/json",
        )
    assert response.status_code == 200, response.content
    assert response.json()["status"] == "submitted"
    return claimed["id"]


@pytest.mark.parametrize("concepts", [100, 1000])
def test_next_and_submit_cost_a_fixed_number_of_queries(concepts, django_assert_max_num_queries):
    project, annotators = _project(concepts)
    # Other annotators' work already in the project must not change the cost.
    for other in annotators[1:]:
        client = Client()
        client.force_login(other, backend=MODEL_BACKEND)
        for _ in range(3):
            _next_and_submit(client, project.slug, django_assert_max_num_queries)
    client = Client()
    client.force_login(annotators[0], backend=MODEL_BACKEND)

    done = [_next_and_submit(client, project.slug, django_assert_max_num_queries) for _ in range(5)]

    assert len(set(done)) == 5
    assert Assignment.objects.filter(user=annotators[0], status=Assignment.Status.DONE).count() == 5
    assert Item.objects.filter(project=project, status=Item.Status.SUBMITTED).count() == 5 + 3 * (ANNOTATORS - 1)
    assert Assignment.objects.filter(project=project).count() == 2 * concepts


@pytest.mark.parametrize("concepts", [100, 1000])
def test_an_empty_queue_costs_a_fixed_number_of_queries(concepts, django_assert_max_num_queries):
    project, annotators = _project(concepts)
    Assignment.objects.filter(user=annotators[0]).update(status=Assignment.Status.DONE)
    client = Client()
    client.force_login(annotators[0], backend=MODEL_BACKEND)

    with django_assert_max_num_queries(EMPTY_QUEUE_QUERIES):
        response = client.post(
            f"/api/projects/{project.slug}/assignments/next/", {"kind": "author"}, "application/json"
        )

    assert (response.status_code, response.content) == (204, b"")
