from dataclasses import dataclass

import pytest
from django.utils import translation
from rest_framework.test import APIClient

from annotation.models import Assignment, Item, Membership, Project
from annotation.services.assignments import assignment_claim_next, assignment_plan_authoring
from annotation.services.catalog import concepts_import
from annotation.services.items import unit_submit
from annotation.services.members import member_set_countries
from annotation.services.projects import membership_add, profile_update, project_create
from tests.annotation.task_types.sentence_completion.data import payload
from tests.factories import UserFactory, make_csqa_project


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


@pytest.fixture
def csqa(db):
    return make_csqa_project()


@pytest.fixture
def other_project(db):
    return make_csqa_project(slug="other", annotators=2, categories=1, concepts_per_category=2)


@pytest.fixture
def api_client():
    return APIClient()


@dataclass
class TwoCountries:
    """An ArabCulture (sentence_completion) project scoped by country: per country one author with two
    submitted items and one national reviewer."""

    project: Project
    admin: object
    authors: dict[str, object]
    reviewers: dict[str, object]
    items: dict[str, list[Item]]


TWO_COUNTRIES = ("Egypt", "Jordan")


def make_two_countries(*, slug: str = "ac") -> TwoCountries:
    admin = UserFactory(username=f"{slug}-admin")
    project = project_create(
        creator=admin,
        name="ArabCulture scope",
        slug=slug,
        task_type="sentence_completion",
        languages=[{"code": "ar", "name": "العربية", "direction": "rtl"}],
        guidelines="اكتب مقدمة وثلاث تكملات.",
        authors_per_concept=1,
        plan_seed=7,
    )
    world = TwoCountries(project=project, admin=admin, authors={}, reviewers={}, items={})
    for country in TWO_COUNTRIES:
        author = UserFactory(username=f"{slug}-{country.lower()}-author")
        membership = membership_add(project=project, user=author, role=Membership.Role.ANNOTATOR, code=country)
        profile_update(membership=membership, country=country)
        reviewer = UserFactory(username=f"{slug}-{country.lower()}-reviewer")
        member_set_countries(
            membership=membership_add(project=project, user=reviewer, role=Membership.Role.REVIEWER),
            countries=[country],
        )
        world.authors[country], world.reviewers[country] = author, reviewer
    units = "category,concept\n" + "".join(f"Food,subtopic-{j}\n" for j in range(2 * len(TWO_COUNTRIES)))
    concepts_import(project=project, data=units.encode(), filename="units.csv")
    assignment_plan_authoring(project=project)
    for n, country in enumerate(TWO_COUNTRIES):
        author = world.authors[country]
        world.items[country] = []
        for j in range(2):
            assignment = assignment_claim_next(project=project, user=author, kind=Assignment.Kind.AUTHOR)
            data = payload(10 * n + j, country=country)
            world.items[country].append(unit_submit(assignment_id=assignment.pk, user=author, data=data)[0])
    return world


@pytest.fixture
def two_countries(db):
    return make_two_countries()
