"""Work sent back to a writer: it comes first in their queue."""

from __future__ import annotations

from django.contrib.auth.base_user import AbstractBaseUser

from annotation.models import Project
from annotation.selectors import items_needing_revision


def revision_assignment_next(*, project: Project, user: AbstractBaseUser) -> int | None:
    """The authoring assignment of the writer's oldest item waiting for revision, or None. Items without an
    assignment (imported, a model's draft) are revised elsewhere, so they are left out."""
    return (
        items_needing_revision(project=project, user=user)
        .filter(assignment__isnull=False)
        .values_list("assignment_id", flat=True)
        .first()
    )
