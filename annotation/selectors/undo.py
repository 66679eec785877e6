"""Reads for the judging page's "Previous": the judge's last judgment and whether it may still change."""

from __future__ import annotations

from django.contrib.auth.base_user import AbstractBaseUser
from django.utils import timezone

from annotation.models import Assignment, Project
from annotation.services.undo import change_refusal


def last_judged(
    *, project: Project, user: AbstractBaseUser, kind: str, besides: int | None = None
) -> Assignment | None:
    """The user's most recently done judging assignment in the project (other than `besides`); one query."""
    qs = Assignment.objects.filter(project=project, user=user, kind=kind, status=Assignment.Status.DONE)
    if besides is not None:
        qs = qs.exclude(pk=besides)
    return qs.only("pk", "completed_at").order_by("-completed_at", "-id").first()


def judgment_change_refusal(*, assignment: Assignment) -> str:
    """Why this judging assignment's judgment can't change any more ("" when it can, or is not given yet).
    One query, only for a done assignment."""
    if assignment.status != Assignment.Status.DONE or assignment.target_item_id is None:
        return ""
    row = (
        Assignment.objects.filter(pk=assignment.pk)
        .values_list("completed_at", "target_item__status", "target_item__judging_round")
        .first()
    )
    if row is None:
        return ""
    completed_at, item_status, item_round = row
    return change_refusal(
        status=assignment.status,
        completed_at=completed_at,
        round_=assignment.round,
        item_status=item_status,
        item_round=item_round,
        now=timezone.now(),
    )
