"""Glue over qc.services for the API: one entry point for the three review decisions."""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.auth.base_user import AbstractBaseUser

from qc.models import Review
from qc.services import review_approve, review_reject, review_request_revision


def review_decide(
    *,
    item_id: int,
    version_id: int,
    reviewer: AbstractBaseUser,
    decision: str,
    feedback: str = "",
    error_type_codes: Sequence[str] = (),
) -> Review:
    if decision == Review.Decision.APPROVE:
        return review_approve(item_id=item_id, version_id=version_id, reviewer=reviewer, feedback=feedback)
    service = review_request_revision if decision == Review.Decision.REVISE else review_reject
    return service(
        item_id=item_id, version_id=version_id, reviewer=reviewer, feedback=feedback, error_type_codes=error_type_codes
    )
