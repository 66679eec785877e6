"""The counts of the project page's stage panel (annotation.stages), a fixed number of queries."""

from __future__ import annotations

from django.db.models import Exists, OuterRef

from annotation.models import Assignment, Item, Membership
from annotation.stages import StageCounts

OPEN = (Assignment.Status.PENDING, Assignment.Status.ACTIVE)


def stage_counts(
    *, membership: Membership, statuses: dict[str, int], judging_open: int, judging_kind: str
) -> StageCounts:
    """`statuses`: the items the viewer may see, by status (the project page counts them already);
    `judging_kind`: the judging rule's assignment kind ("" when the protocol has no judging)."""
    project = membership.project
    units = Assignment.objects.filter(project=project, kind=Assignment.Kind.AUTHOR, status__in=OPEN)
    to_plan = 0
    if membership.role == Membership.Role.ANNOTATOR:
        units = units.filter(user_id=membership.user_id)
    elif membership.role == Membership.Role.ADMIN:
        # Approved and never handed to a judge: what the judging plan would take up.
        handed_out = Assignment.objects.filter(target_item=OuterRef("pk"), kind=judging_kind)
        to_plan = (
            Item.objects.filter(project=project, status=Item.Status.APPROVED, judging_round=0)
            .exclude(Exists(handed_out))
            .count()
        )
    return StageCounts(
        statuses=statuses,
        units_open=units.count() if membership.role != Membership.Role.REVIEWER else 0,
        to_plan=to_plan,
        judging_open=judging_open,
    )
