"""A judge's proposed correction, sent by a QC reviewer to the item's author as a revision request.

Judges (e.g. validators of an inference pair) may flag an error and propose a corrected text; it is
stored on their judgment (flags "error", "correction") and never replaces the item's text. A reviewer
who agrees sends it to the author: the item goes back to `revision_requested` with the proposal and
the reviewer's note as its reason, its open judge assignments are cancelled (judging resumes after the
author's revision is approved again), and the judgment remembers that its proposal was sent. The
author's revision then goes through QC review like any other.
"""

from __future__ import annotations

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.utils.translation import gettext

from annotation import limits
from annotation.errors import IllegalTransition, NotAllowed
from annotation.models import Assignment, Item, Judgment, Membership
from annotation.models.items import JUDGEABLE

REVIEWER_ROLES = (Membership.Role.REVIEWER, Membership.Role.ADMIN)
OPEN = (Assignment.Status.PENDING, Assignment.Status.ACTIVE)
SENT = "sent"


def correction_reason(judgment: Judgment, note: str) -> str:
    proposal = (judgment.flags or {}).get("correction") or ""
    reason = f"A validator found an error and proposed: “{proposal}”." if proposal else "A validator found an error."
    return f"{reason} {note}".strip()


@transaction.atomic
def correction_send_to_author(*, judgment_id: int, reviewer: AbstractBaseUser, note: str = "") -> Item:
    """Send a judge's flagged error (and proposed text) to the item's author as a revision request.

    Refused, with nothing changed: not a reviewer of the project, the reviewer's own item, a judgment
    that flags no error, a proposal already sent, an item that is not in judging.
    """
    note = limits.check_text(note.strip(), field="note", max_length=limits.FEEDBACK)
    item_id = Judgment.objects.filter(pk=judgment_id).values_list("item_id", flat=True).first()
    if item_id is None:
        raise NotAllowed(gettext("No such judgment."))
    # Lock order as elsewhere: the item, then what hangs off it.
    item = Item.objects.select_for_update(of=("self",)).select_related("project").get(pk=item_id)
    judgment = Judgment.objects.select_for_update().get(pk=judgment_id)
    is_reviewer = Membership.objects.filter(
        project=item.project, user=reviewer, role__in=REVIEWER_ROLES, is_active=True
    ).exists()
    if not is_reviewer:
        raise NotAllowed(gettext("Only the project's reviewers can send corrections to authors."))
    if item.author_id == reviewer.pk:
        raise NotAllowed(gettext("You can't review your own item."))
    flags = judgment.flags or {}
    if not flags.get("error"):
        raise IllegalTransition(gettext("This judgment flags no error."))
    if flags.get("correction_status") == SENT:
        raise IllegalTransition(gettext("This correction was already sent to the author."))
    if item.status not in JUDGEABLE:
        raise IllegalTransition(
            gettext("Only an approved item can be sent back; this one is %(get_status_display)s.")
            % {"get_status_display": item.get_status_display().lower()}
        )
    item.status = Item.Status.REVISION_REQUESTED
    item.reviewer = reviewer
    item.status_reason = correction_reason(judgment, note)
    item.save(update_fields=["status", "reviewer", "status_reason", "updated_at"])
    judgment.flags = {**flags, "correction_status": SENT}
    judgment.save(update_fields=["flags", "updated_at"])
    Assignment.objects.filter(project_id=item.project_id, target_item=item, status__in=OPEN).exclude(
        kind=Assignment.Kind.AUTHOR
    ).update(status=Assignment.Status.CANCELLED, lease_expires_at=None)
    return item
