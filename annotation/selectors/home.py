"""What waits for a person in each of their projects, for the home page: three queries whatever the
number of projects (the memberships with their screening status, sent-back items, open judging work)."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import connection
from django.db.models import Count, F, Sum

from annotation.models import Application, Assignment, AssignmentTally, Item, Membership
from annotation.services.planned_blocks import PLANNED
from annotation.task_types import get_task_type, project_settings

OPEN = (Assignment.Status.PENDING, Assignment.Status.ACTIVE)


@dataclass(frozen=True)
class ProjectWaiting:
    membership: Membership
    sent_back: int  # the person's items a reviewer sent back
    screening: bool  # a screening to pass before they may work
    judging: int  # their open judging assignments
    judging_label: str  # the protocol's word for judging ("Validation")


def home_waiting(*, user: AbstractBaseUser) -> list[ProjectWaiting]:
    memberships = list(
        Membership.objects.filter(user=user, is_active=True)
        .select_related("project")
        .annotate(application_status=F("application__status"))
        .order_by("project__name", "project_id")
    )
    annotating = [m.project_id for m in memberships if m.role == Membership.Role.ANNOTATOR]
    sent_back: dict[int, int] = {}
    judging: dict[tuple[int, str], int] = {}
    if annotating:
        sent_back = dict(
            Item.objects.filter(project_id__in=annotating, author=user, status=Item.Status.REVISION_REQUESTED)
            .values_list("project_id")
            .annotate(n=Count("id"))
            .order_by()
        )
        if connection.vendor == "postgresql":
            # The database's tallies (as the navigation's count), with a big plan's slots not written yet.
            rows = (
                AssignmentTally.objects.filter(project_id__in=annotating, user_id=user.pk, status__in=(*OPEN, PLANNED))
                .values_list("project_id", "kind")
                .annotate(n=Sum("n"))
                .order_by()
            )
        else:
            rows = (
                Assignment.objects.filter(project_id__in=annotating, user_id=user.pk, status__in=OPEN)
                .values_list("project_id", "kind")
                .annotate(n=Count("id"))
                .order_by()
            )
        judging = {(project_id, kind): n for project_id, kind, n in rows}
    out = []
    for m in memberships:
        task_type = get_task_type(m.project.task_type)
        rule = task_type.judging_rule(project_settings(m.project))
        judges = (
            m.role == Membership.Role.ANNOTATOR and rule is not None and task_type.judgment_form_class() is not None
        )
        out.append(
            ProjectWaiting(
                membership=m,
                sent_back=sent_back.get(m.project_id, 0),
                screening=(
                    m.role == Membership.Role.ANNOTATOR
                    and m.project.screening_required
                    and m.application_status != Application.Status.ADMITTED
                ),
                judging=judging.get((m.project_id, rule.kind), 0) if judges else 0,
                judging_label=str(rule.activity) if judges else "",
            )
        )
    return out
