"""The order of a reviewer's queue, in one place so the list, "Review next" and the advance after a
decision agree with what the queue's header says: resubmissions of items this reviewer sent back first,
then items this reviewer already opened (so "Review next" gives back an abandoned item instead of
claiming another), then the oldest submissions (when the current version was submitted), then by id."""

from __future__ import annotations

from django.contrib.auth.base_user import AbstractBaseUser
from django.db.models import Case, Exists, F, OuterRef, QuerySet, Value, When

from annotation.models import Item
from qc.models import Review


def review_queue_order(queryset: QuerySet[Item], *, reviewer: AbstractBaseUser) -> QuerySet[Item]:
    sent_back_by_me = Review.objects.filter(item=OuterRef("pk"), reviewer=reviewer, decision=Review.Decision.REVISE)
    return queryset.annotate(
        queue_rank=Case(
            When(Exists(sent_back_by_me), then=Value(0)),
            When(reviewer=reviewer, then=Value(1)),
            default=Value(2),
        )
    ).order_by("queue_rank", F("current_version__submitted_at").asc(nulls_last=True), "id")
