"""Autosaved authoring drafts (WorkDraft): the form as the author left it, restored when they come back."""

from __future__ import annotations

import logging
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from annotation.errors import IllegalTransition, InvalidInput, NotAllowed
from annotation.models import Assignment, Item, WorkDraft
from annotation.services.screening import work_gate
from annotation.task_types import get_task_type

logger = logging.getLogger(__name__)

EDITABLE = (Item.Status.DRAFT, Item.Status.REVISION_REQUESTED)
# A form has a few dozen fields at most; the bounds keep a scripted client from storing megabytes.
MAX_FIELDS = 200
MAX_CHARS = 100_000


def clean_fields(pairs: list[tuple[str, list[str]]]) -> dict[str, Any]:
    """Pure: posted (name, values) pairs as stored (one value as a string, several as a list), without
    the CSRF token and the button pressed; refused beyond the bounds."""
    fields: dict[str, Any] = {}
    for name, values in pairs:
        if name in ("csrfmiddlewaretoken", "action"):
            continue
        fields[name] = values[0] if len(values) == 1 else list(values)
    size = sum(len(k) + sum(len(v) for v in ([v] if isinstance(v, str) else v)) for k, v in fields.items())
    if len(fields) > MAX_FIELDS or size > MAX_CHARS:
        raise InvalidInput(_("The draft is too large to be saved."))
    return fields


@transaction.atomic
def work_draft_save(*, assignment_id: int, user: AbstractBaseUser, fields: dict[str, Any]) -> WorkDraft:
    """Keep the author's unsaved form fields for their authoring assignment.

    Refused, with nothing changed: someone else's or a cancelled assignment, and a unit whose items are
    all submitted (a draft never replaces a submitted item).
    """
    # The assignment's lock orders this against a submit of the same unit (which deletes the draft).
    assignment = Assignment.objects.select_for_update(of=("self",)).select_related("project").get(pk=assignment_id)
    if assignment.user_id != user.pk or assignment.kind != Assignment.Kind.AUTHOR:
        raise NotAllowed(_("This assignment is not yours."))
    work_gate(project=assignment.project, user_id=user.pk)
    if assignment.status == Assignment.Status.CANCELLED:
        raise IllegalTransition(_("This assignment was cancelled; open your queue for the next one."))
    statuses = list(Item.objects.filter(assignment=assignment).values_list("status", flat=True))
    per_unit = get_task_type(assignment.project.task_type).items_per_unit
    if len(statuses) >= per_unit and not any(s in EDITABLE for s in statuses):
        raise IllegalTransition(_("This work is already submitted; a draft can't replace it."))
    draft, _created = WorkDraft.objects.update_or_create(
        assignment=assignment, defaults={"fields": fields, "saved_at": timezone.now()}
    )
    return draft


def work_draft_clear(*, assignment_id: int) -> None:
    """Drop the autosaved draft: the item itself now holds the work (saved, submitted or skipped)."""
    WorkDraft.objects.filter(assignment_id=assignment_id).delete()


def work_draft_for(*, assignment: Assignment) -> WorkDraft | None:
    """The assignment's autosaved draft (its holder's only: callers pass an assignment of the user)."""
    return WorkDraft.objects.filter(assignment=assignment).first()
