"""Reads of skipped work: which user skipped which unit (for the planners), the admin's list."""

from __future__ import annotations

from django.db.models import QuerySet

from annotation.models import Assignment, Project, Skip

SKIPS_SHOWN = 200


def skipped_units(*, project: Project, kind: str) -> list[tuple[int, int]]:
    """(unit id, user id) of every skipped assignment of this kind: the concept for authoring, else the
    item. A planner excludes these users from these units."""
    unit = "assignment__concept_id" if kind == Assignment.Kind.AUTHOR else "assignment__target_item_id"
    return list(
        Skip.objects.filter(project=project, assignment__kind=kind)
        .exclude(**{f"{unit}__isnull": True})
        .values_list(unit, "assignment__user_id")
        .order_by()
    )


def skips_of_project(*, project: Project, limit: int = SKIPS_SHOWN) -> QuerySet[Skip]:
    """The project's latest skips with their unit and user (one query, newest first)."""
    return (
        Skip.objects.filter(project=project)
        .select_related("assignment__user", "assignment__concept__category", "assignment__target_item")
        .order_by("-created_at", "-id")[:limit]
    )
