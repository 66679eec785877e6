"""The judging queue's link in the navigation, with the number of open assignments."""

from __future__ import annotations

from typing import Any

from django.db import connection

from annotation.models import Assignment, AssignmentTally, Membership
from annotation.services.planned_blocks import PLANNED
from annotation.task_types import get_task_type, project_settings

OPEN = (Assignment.Status.PENDING, Assignment.Status.ACTIVE)


def judging_nav(membership: Membership) -> dict[str, Any]:
    """{"judge_nav": {"label", "open"}} for an annotator of a project with judging, else {}.

    One indexed read of the database-kept tallies (AssignmentTally), whatever the number of assignments;
    other databases (the SQLite demo) count."""
    if membership.role != Membership.Role.ANNOTATOR:
        return {}
    project = membership.project
    task_type = get_task_type(project.task_type)
    rule = task_type.judging_rule(project_settings(project))
    if rule is None or task_type.judgment_form_class() is None:
        return {}
    if connection.vendor == "postgresql":
        rows = AssignmentTally.objects.filter(project=project, user_id=membership.user_id, kind=rule.kind)
        # With the slots a big plan has not written into the assignment table yet (planned_blocks).
        n = sum(rows.filter(status__in=(*OPEN, PLANNED)).values_list("n", flat=True))
    else:
        n = Assignment.objects.filter(
            project=project, user_id=membership.user_id, kind=rule.kind, status__in=OPEN
        ).count()
    return {"judge_nav": {"label": rule.activity, "open": n}}
