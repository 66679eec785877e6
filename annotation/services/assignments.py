from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from annotation.errors import InvalidInput
from annotation.models import Assignment, Concept, Membership, Project
from annotation.planning import PlanningError, Unit, plan_balanced

BULK_BATCH = 5000


@dataclass(frozen=True)
class PlanSummary:
    created: int
    kept: int
    removed: int
    reactivated: int
    workers: int
    units: int


@transaction.atomic
def assignment_plan_authoring(*, project: Project, seed: int | None = None) -> PlanSummary:
    """Plan authoring: every concept to `authors_per_concept` distinct active annotators, balanced.

    Work that is started or done (status active/done) never moves. Unstarted (pending) work is
    re-planned: rows the new plan keeps stay, the rest are removed (they carry no data), new ones are
    bulk-created. Work started by an annotator who has since left is cancelled and re-planned.
    """
    # One planner at a time per project: a second one waits, then sees the first one's rows.
    Project.objects.select_for_update().filter(pk=project.pk).get()
    seed = project.plan_seed if seed is None else seed
    annotators = list(
        Membership.objects.filter(project=project, role=Membership.Role.ANNOTATOR, is_active=True)
        .order_by("user_id")
        .values_list("user_id", flat=True)
    )
    k = project.authors_per_concept
    if len(annotators) < k:
        raise InvalidInput(
            f"Planning needs at least {k} active annotators (authors per concept); the project has {len(annotators)}."
        )
    units = [Unit(id=cid, group=cat) for cid, cat in Concept.objects.filter(project=project).values_list("id", "category_id")]
    active_set = set(annotators)

    existing = list(
        Assignment.objects.filter(project=project, kind=Assignment.Kind.AUTHOR).values_list(
            "id", "concept_id", "user_id", "status"
        )
    )
    held: dict[int, set[int]] = {}
    pending: dict[tuple[int, int], int] = {}
    cancelled: dict[tuple[int, int], int] = {}
    orphaned_started: list[int] = []
    for aid, concept_id, user_id, status in existing:
        if status == Assignment.Status.DONE or (status == Assignment.Status.ACTIVE and user_id in active_set):
            held.setdefault(concept_id, set()).add(user_id)
        elif status == Assignment.Status.ACTIVE:
            orphaned_started.append(aid)
        elif status == Assignment.Status.PENDING:
            pending[(concept_id, user_id)] = aid
        else:
            cancelled[(concept_id, user_id)] = aid

    try:
        slots = plan_balanced(units=units, workers=annotators, per_unit=k, seed=seed, held=held)
    except PlanningError as exc:
        raise InvalidInput(str(exc)) from None

    if orphaned_started:
        Assignment.objects.filter(pk__in=orphaned_started).update(status=Assignment.Status.CANCELLED, lease_expires_at=None)
    to_create: list[Assignment] = []
    keep_positions: list[Assignment] = []
    reactivate: list[Assignment] = []
    for slot in slots:
        key = (slot.unit_id, slot.worker_id)
        if key in pending:
            keep_positions.append(Assignment(pk=pending.pop(key), position=slot.position))
        elif key in cancelled:
            reactivate.append(Assignment(pk=cancelled.pop(key), position=slot.position, status=Assignment.Status.PENDING))
        else:
            to_create.append(
                Assignment(
                    project=project,
                    user_id=slot.worker_id,
                    kind=Assignment.Kind.AUTHOR,
                    concept_id=slot.unit_id,
                    position=slot.position,
                )
            )
    removed = len(pending)
    if pending:
        Assignment.objects.filter(pk__in=list(pending.values())).delete()
    Assignment.objects.bulk_update(keep_positions, ["position"], batch_size=BULK_BATCH)
    Assignment.objects.bulk_update(reactivate, ["position", "status"], batch_size=BULK_BATCH)
    Assignment.objects.bulk_create(to_create, batch_size=BULK_BATCH)
    return PlanSummary(
        created=len(to_create),
        kept=len(keep_positions),
        removed=removed,
        reactivated=len(reactivate),
        workers=len(annotators),
        units=len(units),
    )


def _lease_deadline():
    return timezone.now() + timedelta(seconds=settings.GOTONG_ASSIGNMENT_LEASE_SECONDS)


@transaction.atomic
def assignment_claim_next(*, project: Project, user: AbstractBaseUser, kind: str) -> Assignment | None:
    """Hand the user their next unit of work and lease it to them.

    `SKIP LOCKED` lets concurrent requests (several tabs, several workers) each take a different row
    without waiting; the lease marks it taken once the transaction commits.
    """
    now = timezone.now()
    assignment = (
        Assignment.objects.select_for_update(skip_locked=True)
        .filter(project=project, user=user, kind=kind)
        .filter(Q(status=Assignment.Status.PENDING) | Q(status=Assignment.Status.ACTIVE, lease_expires_at__lt=now))
        .order_by("position", "id")
        .first()
    )
    if assignment is None:
        return None
    assignment.status = Assignment.Status.ACTIVE
    assignment.lease_expires_at = _lease_deadline()
    assignment.started_at = assignment.started_at or now
    assignment.save(update_fields=["status", "lease_expires_at", "started_at"])
    return assignment


def assignment_renew_lease(*, assignment: Assignment) -> None:
    Assignment.objects.filter(pk=assignment.pk, status=Assignment.Status.ACTIVE).update(lease_expires_at=_lease_deadline())
