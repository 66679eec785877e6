from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.utils.text import slugify

from annotation.errors import IllegalTransition, InvalidInput
from annotation.models import AnnotatorProfile, Membership, Project, ProjectLanguage
from annotation.task_types import get_task_type

User = get_user_model()

PROFILE_FIELDS = ("native_languages", "region", "country", "ethnicity", "years_in_region", "education")


@transaction.atomic
def project_create(
    *,
    creator: AbstractBaseUser,
    name: str,
    task_type: str,
    languages: list[dict[str, str]],
    slug: str = "",
    guidelines: str = "",
    authors_per_concept: int = 2,
    answerers_per_item: int = 5,
    ambiguity_threshold: int = 3,
    plan_seed: int = 0,
) -> Project:
    """Create a project, its languages and its QC taxonomy; the creator becomes its admin."""
    from qc.services import error_types_seed  # qc depends on annotation, not the reverse at import time

    try:
        tt = get_task_type(task_type)
    except LookupError as exc:
        raise InvalidInput(str(exc), field_errors={"task_type": [str(exc)]}) from None
    slug = slug or slugify(name)[:80]
    if not slug:
        raise InvalidInput("A project needs a name.", field_errors={"name": ["Give the project a name."]})
    if Project.objects.filter(slug=slug).exists():
        raise InvalidInput(
            f"A project with the address “{slug}” already exists.", field_errors={"slug": ["Already taken."]}
        )
    if not languages:
        raise InvalidInput("A project needs at least one language.", field_errors={"languages": ["Add one."]})
    project = Project.objects.create(
        name=name,
        slug=slug,
        task_type=tt.name,
        guidelines=guidelines,
        authors_per_concept=authors_per_concept,
        answerers_per_item=answerers_per_item,
        ambiguity_threshold=ambiguity_threshold,
        plan_seed=plan_seed,
        created_by=creator,
    )
    project_set_languages(project=project, languages=languages)
    Membership.objects.create(project=project, user=creator, role=Membership.Role.ADMIN)
    error_types_seed(project=project, error_types=tt.default_error_types)
    return project


def project_set_languages(*, project: Project, languages: list[dict[str, str]]) -> None:
    seen = set()
    rows = []
    for position, lang in enumerate(languages):
        code = (lang.get("code") or "").strip()
        if not code or code in seen:
            raise InvalidInput(f"Language #{position + 1} has an empty or repeated code.")
        seen.add(code)
        direction = lang.get("direction") or ProjectLanguage.Direction.LTR
        if direction not in ProjectLanguage.Direction.values:
            raise InvalidInput(f"Language {code}: direction must be ltr or rtl.")
        rows.append(
            ProjectLanguage(
                project=project, code=code, name=lang.get("name") or code, direction=direction, position=position
            )
        )
    ProjectLanguage.objects.filter(project=project).delete()
    ProjectLanguage.objects.bulk_create(rows)


@transaction.atomic
def project_update(*, project: Project, languages: list[dict[str, str]] | None = None, **fields: Any) -> Project:
    allowed = {"name", "guidelines", "authors_per_concept", "answerers_per_item", "ambiguity_threshold", "plan_seed"}
    unknown = set(fields) - allowed
    if unknown:
        raise InvalidInput(f"These fields can't be changed: {', '.join(sorted(unknown))}.")
    for key, value in fields.items():
        setattr(project, key, value)
    project.save()
    if languages is not None:
        project_set_languages(project=project, languages=languages)
    return project


@transaction.atomic
def membership_add(*, project: Project, user: AbstractBaseUser, role: str, code: str = "") -> Membership:
    """Add a member, or re-activate and re-role one who left."""
    if role not in Membership.Role.values:
        raise InvalidInput(f"Unknown role {role!r}.", field_errors={"role": ["Choose admin, reviewer or annotator."]})
    membership, created = Membership.objects.get_or_create(
        project=project, user=user, defaults={"role": role, "code": code}
    )
    if not created:
        if membership.role == Membership.Role.ADMIN and role != Membership.Role.ADMIN:
            _refuse_removing_last_admin(membership)
        membership.role = role
        membership.is_active = True
        if code:
            membership.code = code
        membership.save(update_fields=["role", "is_active", "code"])
    AnnotatorProfile.objects.get_or_create(user=user)
    return membership


def _refuse_removing_last_admin(membership: Membership) -> None:
    # Lock the project's admin rows so two admins demoting each other at once can't both succeed.
    admins = list(
        Membership.objects.select_for_update()
        .filter(project_id=membership.project_id, role=Membership.Role.ADMIN, is_active=True)
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    if admins == [membership.pk]:
        raise IllegalTransition("A project needs at least one active admin; make someone else admin first.")


@transaction.atomic
def membership_deactivate(*, membership: Membership) -> Membership:
    """The member leaves: their history stays; their unstarted work goes back to planning."""
    if membership.role == Membership.Role.ADMIN:
        _refuse_removing_last_admin(membership)
    membership.is_active = False
    membership.save(update_fields=["is_active"])
    return membership


@transaction.atomic
def user_create(*, username: str, password: str | None, email: str = "", **profile: Any) -> AbstractBaseUser:
    if User.objects.filter(username=username).exists():
        raise InvalidInput(f"The user name “{username}” is taken.", field_errors={"username": ["Already taken."]})
    user = User.objects.create_user(username=username, email=email, password=password)
    profile_update(user=user, **profile)
    return user


@transaction.atomic
def profile_update(*, user: AbstractBaseUser, **fields: Any) -> AnnotatorProfile:
    unknown = set(fields) - set(PROFILE_FIELDS) - {"screening_answers"}
    if unknown:
        raise InvalidInput(f"Unknown profile fields: {', '.join(sorted(unknown))}.")
    profile, _ = AnnotatorProfile.objects.get_or_create(user=user)
    for key, value in fields.items():
        setattr(profile, key, value)
    profile.save()
    return profile
