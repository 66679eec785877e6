"""QC inside a scope: an item's reviewers and judges must share a profile attribute with its author.

A task type names the attribute (`country_scope.member_scope(settings)`: "country"; "" for none). The
author's and a judge's value is their AnnotatorProfile's; a reviewer's values are their membership's
list (Membership.countries), so one national reviewer may cover several countries. A member without a
value is in no scope: they judge or review nothing of a scoped project (never everything).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from django.db.models import Q
from django.utils.translation import gettext

from annotation.errors import InvalidInput
from annotation.models import Membership, Project
from annotation.task_types import get_task_type, project_settings

# scope -> (the AnnotatorProfile field of authors and judges, the Membership list field of reviewers)
SCOPES: dict[str, tuple[str, str]] = {"country": ("country", "countries")}


def project_scope(project: Project) -> str:
    country_scope = get_task_type(project.task_type).country_scope
    scope = country_scope.member_scope(project_settings(project)) if country_scope is not None else ""
    if scope and scope not in SCOPES:
        raise ValueError(f"Unknown member scope {scope!r}; known: {', '.join(SCOPES)}.")
    return scope


def _clean(value: object) -> str:
    return str(value or "").strip()


def member_values(*, project: Project, scope: str, user_ids: Iterable[int] | None = None) -> dict[int, str]:
    """user id -> the profile value of the project's members ("" when they gave none)."""
    field = SCOPES[scope][0]
    qs = Membership.objects.filter(project=project)
    if user_ids is not None:
        qs = qs.filter(user_id__in=list(user_ids))
    return {user_id: _clean(value) for user_id, value in qs.values_list("user_id", f"profile__{field}")}


def reviewer_values(*, project: Project, scope: str, user_id: int) -> set[str]:
    field = SCOPES[scope][1]
    values = Membership.objects.filter(project=project, user_id=user_id).values_list(field, flat=True).first()
    return {_clean(v) for v in (values or []) if _clean(v)}


def reviewable_authors_q(*, project: Project, reviewer_id: int) -> Q:
    """A filter on items: those whose author is in the reviewer's scope (everything when unscoped)."""
    scope = project_scope(project)
    if not scope:
        return Q()
    values = reviewer_values(project=project, scope=scope, user_id=reviewer_id)
    authors = Membership.objects.filter(project=project, **{f"profile__{SCOPES[scope][0]}__in": sorted(values)})
    # The ids as a list, not a subquery: with a subquery PostgreSQL may nest-loop the memberships and
    # profiles under every submitted item (0.55 s a claim at 3,900 items, 141,496 inner loops); a
    # reviewer's countries have a few dozen authors at most.
    return Q(author_id__in=list(authors.values_list("user_id", flat=True)))


def review_refusal(*, project: Project, reviewer_id: int, author_id: int | None) -> str:
    """Why this reviewer may not decide on this author's item ("" : they may)."""
    scope = project_scope(project)
    if not scope:
        return ""
    values = reviewer_values(project=project, scope=scope, user_id=reviewer_id)
    author_value = (
        member_values(project=project, scope=scope, user_ids=[author_id]).get(author_id, "") if author_id else ""
    )
    if author_value and author_value in values:
        return ""
    covered = ", ".join(sorted(values)) or gettext("none")
    given = author_value or gettext("not given")
    return gettext(
        "You review items of authors from your %(scope)s list only (%(covered)s); this author's is %(given)s."
    ) % {"scope": scope, "covered": covered, "given": given}


def judges_out_of_scope(
    *, project: Project, authors: Mapping[int, int | None], judges: Iterable[int]
) -> dict[int, set[int]]:
    """item id -> the judges who may not judge it (another scope value than its author's, or none)."""
    scope = project_scope(project)
    if not scope:
        return {}
    judges = list(judges)
    values = member_values(project=project, scope=scope, user_ids={*judges, *(a for a in authors.values() if a)})
    by_value: dict[str, set[int]] = {}
    for judge in judges:
        by_value.setdefault(values.get(judge, ""), set()).add(judge)
    everyone = set(judges)
    out: dict[int, set[int]] = {}
    for item_id, author_id in authors.items():
        value = values.get(author_id, "") if author_id else ""
        out[item_id] = everyone - (by_value.get(value, set()) if value else set())
    return out


def canonical_country(*, project: Project, value: str) -> str:
    """`value` as the project's task type spells it (case-insensitive match), when the task type names its
    countries; refused (InvalidInput) when it names them and `value` is none of them. Blank stays blank."""
    country_scope = get_task_type(project.task_type).country_scope
    known = country_scope.countries if country_scope is not None else ()
    value = _clean(value)
    if not known or not value:
        return value
    for country in known:
        if country.casefold() == value.casefold():
            return country
    message = gettext("%(value)s is not one of this project's countries: %(known)s.") % {
        "value": value,
        "known": ", ".join(known),
    }
    raise InvalidInput(message, field_errors={"country": [message]})
