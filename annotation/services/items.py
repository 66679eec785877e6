"""Authoring: drafts, submission and revision. One function per transition; each locks its rows."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from annotation import limits
from annotation.errors import IllegalTransition, InvalidInput, NotAllowed
from annotation.models import Assignment, Item, ItemVersion
from annotation.task_types import get_task_type

EDITABLE = (Item.Status.DRAFT, Item.Status.REVISION_REQUESTED)


def _lock_authoring(assignment_id: int, user: AbstractBaseUser) -> tuple[Assignment, Item | None]:
    # Lock order everywhere: assignment, then item (both by pk), so two saves can't deadlock.
    assignment = (
        Assignment.objects.select_for_update(of=("self",)).select_related("project", "concept").get(pk=assignment_id)
    )
    if assignment.user_id != user.pk or assignment.kind != Assignment.Kind.AUTHOR:
        raise NotAllowed("This assignment is not yours.")
    if assignment.status == Assignment.Status.CANCELLED:
        raise IllegalTransition("This assignment was cancelled; open your queue for the next one.")
    item = Item.objects.select_for_update().filter(assignment=assignment).first()
    return assignment, item


def _write_version(
    *, item: Item, user: AbstractBaseUser, payload: dict[str, Any], justification: str, note: str
) -> ItemVersion:
    """Update the open (unsubmitted) version in place, or start a new one after a submitted one."""
    current = item.current_version
    if current is not None and current.submitted_at is None:
        current.payload = payload
        current.justification = justification
        current.save(update_fields=["payload", "justification"])
        return current
    number = 1 if current is None else current.number + 1
    version = ItemVersion.objects.create(
        item=item, number=number, payload=payload, created_by=user, justification=justification, note=note
    )
    item.current_version = version
    item.save(update_fields=["current_version", "updated_at"])
    return version


def _ensure_item(*, assignment: Assignment, item: Item | None, user: AbstractBaseUser) -> Item:
    if item is not None:
        if item.status not in EDITABLE:
            raise IllegalTransition(
                f"This item is {item.get_status_display().lower()}; it can only be edited as a draft or when a "
                "reviewer asks for a revision."
            )
        return item
    item = Item.objects.create(
        project=assignment.project,
        task_type=assignment.project.task_type,
        author=user,
        concept=assignment.concept,
        assignment=assignment,
    )
    if assignment.status == Assignment.Status.PENDING:
        assignment.status = Assignment.Status.ACTIVE
        assignment.started_at = timezone.now()
        assignment.save(update_fields=["status", "started_at"])
    return item


@transaction.atomic
def item_save_draft(
    *, assignment_id: int, user: AbstractBaseUser, data: dict[str, Any], justification: str = ""
) -> Item:
    """Save the author's work without judging it. Allowed while the item is a draft or sent back."""
    assignment, item = _lock_authoring(assignment_id, user)
    payload = get_task_type(assignment.project.task_type).normalize_payload(data)
    justification = limits.check_text(justification.strip(), field="justification", max_length=limits.JUSTIFICATION)
    item = _ensure_item(assignment=assignment, item=item, user=user)
    note = "draft" if item.status == Item.Status.DRAFT else "revision"
    _write_version(item=item, user=user, payload=payload, justification=justification, note=note)
    return item


@transaction.atomic
def item_submit(*, assignment_id: int, user: AbstractBaseUser, data: dict[str, Any], justification: str = "") -> Item:
    """Validate and submit for review (first time or after a revision request)."""
    assignment, item = _lock_authoring(assignment_id, user)
    if item is not None and item.status not in EDITABLE:
        raise IllegalTransition(f"This item is already {item.get_status_display().lower()}.")
    tt = get_task_type(assignment.project.task_type)
    payload = tt.normalize_payload(data)
    concept = assignment.concept.name if assignment.concept else None
    check = tt.check_payload(payload, concept=concept)
    justification = limits.check_text(justification.strip(), field="justification", max_length=limits.JUSTIFICATION)
    if check.errors or (check.warnings and not justification):
        errors = {**check.warnings, **check.errors} if not justification else dict(check.errors)
        raise InvalidInput("The item can't be submitted yet.", field_errors=errors)
    if not check.warnings:
        justification = ""  # kept only when it overrides a warning, so reviewers see it only then

    first_submission = item is None or item.status == Item.Status.DRAFT
    item = _ensure_item(assignment=assignment, item=item, user=user)
    note = "submitted" if first_submission else "revision"
    version = _write_version(item=item, user=user, payload=payload, justification=justification, note=note)
    now = timezone.now()
    version.submitted_at = now
    version.note = note
    version.save(update_fields=["submitted_at", "note"])
    item.status = Item.Status.SUBMITTED
    item.save(update_fields=["status", "updated_at"])
    if assignment.status != Assignment.Status.DONE:
        assignment.status = Assignment.Status.DONE
        assignment.completed_at = now
        assignment.lease_expires_at = None
        assignment.save(update_fields=["status", "completed_at", "lease_expires_at"])
    return item
