from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import factory
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password

from annotation.models import AnnotatorProfile, Category, Concept, Membership, Project, ProjectLanguage
from annotation.services.projects import membership_add, profile_update, project_create

User = get_user_model()
TEST_PASSWORD = "pw-Gotong-2026"


@lru_cache(maxsize=1)
def _shared_password_hash() -> str:
    # Always Argon2, whatever a test has set PASSWORD_HASHERS to: the cache outlives settings overrides.
    return make_password(TEST_PASSWORD, hasher="argon2")


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = User
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"user{n}")
    # One real Argon2 hash of the test password, shared: hashing per user (~100 MB, tens of ms each)
    # would dominate the suite, and logging in still verifies against a genuine Argon2 hash.
    password = factory.LazyFunction(lambda: _shared_password_hash())


class ProfileFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = AnnotatorProfile

    membership = factory.SubFactory("tests.factories.MembershipFactory")
    region = "West Java"


class ProjectFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Project

    name = factory.Sequence(lambda n: f"Project {n}")
    slug = factory.Sequence(lambda n: f"project-{n}")
    task_type = "csqa"
    guidelines = "Write a question about the concept."


class LanguageFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = ProjectLanguage

    project = factory.SubFactory(ProjectFactory)
    code = "id"
    name = "Indonesian"


class MembershipFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Membership

    project = factory.SubFactory(ProjectFactory)
    user = factory.SubFactory(UserFactory)
    role = Membership.Role.ANNOTATOR


class CategoryFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Category

    project = factory.SubFactory(ProjectFactory)
    name = factory.Sequence(lambda n: f"category{n}")


class ConceptFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Concept

    category = factory.SubFactory(CategoryFactory)
    project = factory.SelfAttribute("category.project")
    name = factory.Sequence(lambda n: f"konsep{n}")


CSQA_GUIDELINES = "# Guidelines\nWrite about **the concept**."


@dataclass
class CsqaProject:
    project: Project
    admin: Any
    reviewers: list
    annotators: list

    @property
    def reviewer(self):
        """The first reviewer: most tests need one."""
        return self.reviewers[0]


def make_csqa_project(
    *,
    slug: str = "demo",
    annotators: int = 3,
    reviewers: int = 1,
    categories: int = 2,
    concepts_per_category: int = 3,
    first_concept: str | None = "kunjung",
    annotator_name: str = "ann",
    regions: list[str] | None = None,
    guidelines: str = CSQA_GUIDELINES,
    **settings: Any,
) -> CsqaProject:
    """The one csqa project factory of the tests: an admin (`<slug>-admin`), `reviewers` reviewers
    (`<slug>-reviewer`, `<slug>-reviewer2`, ...), annotators W1..Wn (`<slug>-<annotator_name><n>`, with
    `regions` when given) and `categories` x `concepts_per_category` concepts named `konsep<c>x<n>`, the
    first of each category `first_concept` when given. `settings` go to project_create (default: k = 2)."""
    admin = UserFactory(username=f"{slug}-admin")
    project = project_create(
        creator=admin,
        name=f"Project {slug}",
        slug=slug,
        task_type="csqa",
        languages=[{"code": "id", "name": "Indonesian"}],
        guidelines=guidelines,
        **({"authors_per_concept": 2} | settings),
    )
    staff = [UserFactory(username=f"{slug}-reviewer{i + 1 if i else ''}") for i in range(reviewers)]
    for user in staff:
        membership_add(project=project, user=user, role=Membership.Role.REVIEWER)
    people = []
    for i in range(annotators):
        user = UserFactory(username=f"{slug}-{annotator_name}{i + 1}")
        membership = membership_add(project=project, user=user, role=Membership.Role.ANNOTATOR, code=f"W{i + 1}")
        if regions:
            profile_update(membership=membership, region=regions[i])
        people.append(user)
    for c in range(categories):
        category = CategoryFactory(project=project, name=f"cat{c}")
        for n in range(concepts_per_category):
            name = first_concept if n == 0 and first_concept else f"konsep{c}x{n}"
            ConceptFactory(category=category, name=name)
    return CsqaProject(project=project, admin=admin, reviewers=staff, annotators=people)
