"""Judgments: an annotator's answer to someone else's approved item (cross-answering)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from annotation import limits
from annotation.errors import IllegalTransition, NotAllowed
from annotation.models import Assignment, Item, Judgment
from annotation.task_types import get_task_type

# Approved by QC, possibly already decided: answers may still come in or change.
ANSWERABLE = (Item.Status.APPROVED, Item.Status.JUDGED, Item.Status.GOLD, Item.Status.EXCLUDED)


@transaction.atomic
def judgment_record(*, assignment_id: int, user: AbstractBaseUser, data: dict[str, Any]) -> Judgment:
    """Save the user's answer for their answer assignment, then recompute the item's gold decision.

    data: {"answer": "A".."E", "uncertain": bool, "question_ambiguous": bool,
    "option_ambiguous": [bool x 5], "comment": str} (or the nested {"value", "flags", "comment"}).
    Submitting again updates the same judgment. Refused, with nothing changed: someone else's or a
    cancelled assignment, an item that is not approved, the user's own item, invalid input.
    """
    # Lock order everywhere: assignment, then item (both by pk), so two saves can't deadlock.
    assignment = (
        Assignment.objects.select_for_update(of=("self",)).select_related("project").filter(pk=assignment_id).first()
    )
    if assignment is None or assignment.user_id != user.pk:
        raise NotAllowed("This assignment is not yours.")
    if assignment.kind != Assignment.Kind.ANSWER or assignment.target_item_id is None:
        raise IllegalTransition("This is not an answering assignment.")
    if assignment.status == Assignment.Status.CANCELLED:
        raise IllegalTransition("This assignment was cancelled; open your queue for the next one.")
    item = Item.objects.select_for_update().get(pk=assignment.target_item_id)
    if item.author_id is not None and item.author_id == user.pk:
        raise NotAllowed("You can't answer your own item.")
    if item.status not in ANSWERABLE:
        raise IllegalTransition(
            f"Only approved items can be answered; this one is {item.get_status_display().lower()}."
        )
    clean = get_task_type(item.task_type).normalize_judgment(data)
    limits.check_text(clean.comment, field="comment", max_length=limits.COMMENT)

    judgment = Judgment.objects.filter(item=item, user=user, kind=Assignment.Kind.ANSWER).first()
    if judgment is None:
        judgment = Judgment(
            project_id=item.project_id, item=item, user=user, item_author_id=item.author_id, kind=Assignment.Kind.ANSWER
        )
    judgment.assignment = assignment
    judgment.value = clean.value
    judgment.flags = clean.flags
    judgment.comment = clean.comment
    judgment.save()

    if assignment.status != Assignment.Status.DONE:
        assignment.status = Assignment.Status.DONE
        assignment.completed_at = timezone.now()
        assignment.lease_expires_at = None
        assignment.save(update_fields=["status", "completed_at", "lease_expires_at"])

    # qc depends on annotation, not the reverse at import time (same as project_create).
    from qc.gold import gold_recompute

    gold_recompute(item_ids=[item.pk])
    return judgment
