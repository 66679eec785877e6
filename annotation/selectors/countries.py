"""The countries an admin may pick for a reviewer: those the project's profiles can use."""

from __future__ import annotations

from annotation.models import AnnotatorProfile, Project
from annotation.task_types import get_task_type


def review_country_choices(*, project: Project, current: list[str]) -> list[str]:
    """The task type's countries when it names them (profiles are held to that list), else the countries
    the project's profiles give; then any the reviewer already has, so a save never drops one silently."""
    country_scope = get_task_type(project.task_type).country_scope
    known = list(country_scope.countries) if country_scope is not None else []
    if not known:
        known = sorted(
            set(
                AnnotatorProfile.objects.filter(membership__project=project)
                .exclude(country="")
                .values_list("country", flat=True)
            )
        )
    return list(dict.fromkeys([*known, *current]))
