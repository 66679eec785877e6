from __future__ import annotations

from django.contrib.auth.base_user import AbstractBaseUser
from django.db.models import Case, QuerySet, Value, When

from annotation.models import Item, Project
from qc.models import ErrorType
from qc.services import reviewable_items


def review_queue(*, project: Project, reviewer: AbstractBaseUser) -> QuerySet[Item]:
    """What `review_claim_next` would hand this reviewer, in the same order: their resubmissions first."""
    return (
        reviewable_items(project=project, reviewer=reviewer)
        .exclude(author=reviewer)
        .select_related("concept__category", "current_version", "author")
        .annotate(mine=Case(When(reviewer=reviewer, then=Value(0)), default=Value(1)))
        .order_by("mine", "updated_at", "id")
    )


def error_types_of(*, project: Project) -> QuerySet[ErrorType]:
    return ErrorType.objects.filter(project=project).order_by("position", "code")
