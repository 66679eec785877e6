from dataclasses import dataclass

import pytest
from django.utils import translation
from rest_framework.test import APIClient

from annotation.models import Membership, Project
from annotation.services.projects import membership_add, project_create
from tests.factories import CategoryFactory, ConceptFactory, UserFactory


@pytest.fixture(autouse=True)
def english_outside_requests():
    """Each test starts in English: a request in another language (Indonesian, Arabic) leaves its
    language active in the thread, which would otherwise leak into the next test's service messages."""
    translation.activate("en")
    yield
    translation.deactivate()


PASSWORD = "pw-Gotong-2026"

VALID_PAYLOAD = {
    "question": "Kapan orang biasanya berkunjung ke rumah saudara saat Lebaran?",
    "choices": ["Pagi hari pertama", "Tengah malam", "Saat hujan", "Hari Senin", "Bulan puasa"],
    "answer": "A",
}


@dataclass
class CsqaProject:
    project: Project
    admin: object
    reviewer: object
    annotators: list


def make_csqa_project(*, slug: str = "demo", annotators: int = 3, categories: int = 2, concepts_per_category: int = 3):
    admin = UserFactory(username=f"{slug}-admin")
    project = project_create(
        creator=admin,
        name=f"Project {slug}",
        slug=slug,
        task_type="csqa",
        languages=[{"code": "id", "name": "Indonesian"}],
        guidelines="# Guidelines\nWrite about **the concept**.",
        authors_per_concept=2,
    )
    reviewer = UserFactory(username=f"{slug}-reviewer")
    membership_add(project=project, user=reviewer, role=Membership.Role.REVIEWER)
    people = []
    for i in range(annotators):
        user = UserFactory(username=f"{slug}-ann{i + 1}")
        membership_add(project=project, user=user, role=Membership.Role.ANNOTATOR, code=f"W{i + 1}")
        people.append(user)
    for c in range(categories):
        category = CategoryFactory(project=project, name=f"cat{c}")
        for n in range(concepts_per_category):
            ConceptFactory(category=category, name="kunjung" if n == 0 else f"konsep{c}x{n}")
    return CsqaProject(project=project, admin=admin, reviewer=reviewer, annotators=people)


@pytest.fixture
def csqa(db):
    return make_csqa_project()


@pytest.fixture
def other_project(db):
    return make_csqa_project(slug="other", annotators=2, categories=1, concepts_per_category=2)


@pytest.fixture
def api_client():
    return APIClient()
