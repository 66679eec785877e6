from functools import lru_cache

import factory
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password

from annotation.models import AnnotatorProfile, Category, Concept, Membership, Project, ProjectLanguage

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
