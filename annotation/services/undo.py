"""Previous / undo for judging: a judge changes their last answer while nobody has used it yet
(annotation.services.judgments.judgment_change records the change under these rules).

"Used" means the item's decision is made (its status left "approved": judged, gold or excluded) or its
next round is planned, which is what the gold engine and the round planner act on. And the change must
come within the lease's length after the answer (GOTONG_ASSIGNMENT_LEASE_SECONDS): the same time the
judge had to answer it.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.utils.translation import gettext as _

from annotation.models import Assignment, Item


def change_deadline(completed_at: datetime | None) -> datetime | None:
    if completed_at is None:
        return None
    return completed_at + timedelta(seconds=settings.GOTONG_ASSIGNMENT_LEASE_SECONDS)


def change_refusal(
    *, status: str, completed_at: datetime | None, round_: int, item_status: str, item_round: int, now: datetime
) -> str:
    """Pure: why a done judging assignment's answer can't be changed any more ("" when it can)."""
    if status != Assignment.Status.DONE:
        return ""
    if item_status != Item.Status.APPROVED:
        return _("This item has been decided; your answer can no longer be changed.")
    if item_round > round_:
        return _("The next round of this item has started; your answer can no longer be changed.")
    deadline = change_deadline(completed_at)
    if deadline is None or deadline < now:
        return _("The time to change this answer has run out.")
    return ""
