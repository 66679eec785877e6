"""Reads of qc that pages and the API share (selectors own their queries; services write)."""

from __future__ import annotations

from collections import defaultdict

from django.db.models import Count, Q
from django.utils.translation import gettext

from annotation.models import Assignment, Category, Item, Membership, Project
from qc.models import ErrorType, Review

ANNOTATOR = Membership.Role.ANNOTATOR


def dashboard_stats(*, project: Project) -> dict:
    """Progress per annotator x category, items by status, QC error types per annotator.

    A fixed number of grouped queries whatever the project size.
    """
    members = list(
        Membership.objects.filter(project=project, role=ANNOTATOR)
        .select_related("user")
        .order_by("code", "user__username")
    )
    categories = list(Category.objects.filter(project=project).order_by("name").values_list("id", "name"))
    progress: dict[tuple[int, int], dict[str, int]] = defaultdict(lambda: {"done": 0, "total": 0})
    for row in (
        Assignment.objects.filter(project=project, kind=Assignment.Kind.AUTHOR)
        .exclude(status=Assignment.Status.CANCELLED)
        .values("user_id", "concept__category_id")
        .annotate(total=Count("id"), done=Count("id", filter=Q(status=Assignment.Status.DONE)))
    ):
        progress[(row["user_id"], row["concept__category_id"])] = {"done": row["done"], "total": row["total"]}
    by_status = dict(Item.objects.filter(project=project).values_list("status").annotate(n=Count("id")).order_by())
    error_types = list(
        ErrorType.objects.filter(project=project).order_by("position", "code").values_list("id", "code", "label")
    )
    error_counts: dict[tuple[int, int], int] = defaultdict(int)
    for author_id, et_id, n in (
        Review.objects.filter(item__project=project, error_types__isnull=False)
        .values_list("item__author_id", "error_types")
        .annotate(n=Count("id"))
        .order_by()
    ):
        error_counts[(author_id, et_id)] = n
    return {
        "categories": [{"id": cid, "name": name} for cid, name in categories],
        "error_types": [{"id": eid, "code": code, "label": gettext(label)} for eid, code, label in error_types],
        "status_counts": {status: by_status.get(status, 0) for status in Item.Status.values},
        "annotators": [
            {
                "membership": m,
                "user_id": m.user_id,
                "username": m.user.username,
                "code": m.code,
                "active": m.is_active,
                "progress": [progress[(m.user_id, cid)] for cid, _ in categories],
                "errors": [error_counts[(m.user_id, eid)] for eid, _, _ in error_types],
            }
            for m in members
        ],
    }
