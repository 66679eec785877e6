"""The catalog page's concepts: searched by text and category, in keyset pages (constant time per page)."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, Q

from annotation.models import Concept, Project

CONCEPT_PAGE = 50
STATES = ("active", "retired", "all")


@dataclass(frozen=True)
class ConceptPage:
    concepts: list[Concept]
    next_after: int | None  # the `after` of the next page; None on the last page


def concept_page(
    *,
    project: Project,
    q: str = "",
    category_id: int | None = None,
    state: str = "active",
    after: int | None = None,
    size: int = CONCEPT_PAGE,
) -> ConceptPage:
    """One page of concepts in id order after `after`, each with its item count (`item_count`).

    `q` matches the concept's name or its category's name (case-insensitive substring).
    """
    qs = Concept.objects.filter(project=project).select_related("category")
    if q:
        qs = qs.filter(Q(name__icontains=q) | Q(category__name__icontains=q))
    if category_id is not None:
        qs = qs.filter(category_id=category_id)
    if state == "active":
        qs = qs.filter(retired_at__isnull=True)
    elif state == "retired":
        qs = qs.filter(retired_at__isnull=False)
    if after is not None:
        qs = qs.filter(pk__gt=after)
    rows = list(qs.annotate(item_count=Count("items")).order_by("pk")[: size + 1])
    more = len(rows) > size
    rows = rows[:size]
    return ConceptPage(concepts=rows, next_after=rows[-1].pk if more else None)


def concept_for_project(*, project: Project, concept_id: int) -> Concept | None:
    return Concept.objects.select_related("category").filter(project=project, pk=concept_id).first()
