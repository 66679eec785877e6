import factory
from django.contrib.auth import get_user_model

from annotation.models import AnnotatorProfile, Category, Concept, Membership, Project, ProjectLanguage

User = get_user_model()


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = User
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"user{n}")
    password = factory.PostGenerationMethodCall("set_password", "pw-Gotong-2026")

    @factory.post_generation
    def save_password(obj, create, extracted, **kwargs):
        if create:
            obj.save(update_fields=["password"])


class ProfileFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = AnnotatorProfile

    user = factory.SubFactory(UserFactory)
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
