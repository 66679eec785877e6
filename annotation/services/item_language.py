"""The language of an item: one of its project's ProjectLanguage codes.

A project with one language gives it to every item; with several, the writer picks it on the authoring
form, preset to the first of their profile's native languages the project has, else the project's first.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.contrib.auth.base_user import AbstractBaseUser
from django.utils.translation import gettext as _

from annotation.errors import InvalidInput
from annotation.models import AnnotatorProfile, Item, Project, ProjectLanguage


def project_languages(project: Project) -> list[ProjectLanguage]:
    """The project's languages in its order (position, code): the first is the default."""
    return list(ProjectLanguage.objects.filter(project=project).order_by("position", "code"))


def first_language(project: Project) -> str:
    code = ProjectLanguage.objects.filter(project=project).order_by("position", "code").values_list("code", flat=True)
    return code.first() or ""


def author_default_language(*, project: Project, user: AbstractBaseUser) -> str:
    """The first of the writer's native languages (their profile in this project) the project has,
    else the project's first language ("" when the project names none)."""
    codes = [language.code for language in project_languages(project)]
    if len(codes) < 2:  # nothing to choose from: no profile to read
        return codes[0] if codes else ""
    raw = (
        AnnotatorProfile.objects.filter(membership__project=project, membership__user=user)
        .values_list("native_languages", flat=True)
        .first()
        or ""
    )
    for code in (part.strip() for part in raw.split(",")):
        if code in codes:
            return code
    return codes[0]


def language_checked(project: Project, code: str) -> str:
    """`code` when the project has that language; refused otherwise."""
    codes = [language.code for language in project_languages(project)]
    if code not in codes:
        raise InvalidInput(
            _("Unknown language %(code)s: choose one of %(codes)s.") % {"code": code, "codes": ", ".join(codes)},
            field_errors={"language": [_("Choose one of the project's languages.")]},
        )
    return code


def items_set_language(items: Iterable[Item], code: str) -> None:
    """Record `code` on the items that don't have it yet (one UPDATE, nothing when all have it)."""
    changed = [item for item in items if item.language != code]
    for item in changed:
        item.language = code
    if changed:
        Item.objects.filter(pk__in=[item.pk for item in changed]).update(language=code)
