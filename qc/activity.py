"""What the dashboard and the report page draw, for every task type: items over time, time spent per
unit and per annotator, throughput per day, agreement per category.

A fixed number of grouped queries whatever the project size (the agreement read is one query over the
judgments, skipped above GOTONG_REPORT_INLINE_JUDGMENTS: the report page has those projects' figures).

Time spent is what the assignments record: from `started_at` (the unit was first opened or leased) to
`completed_at` (its answer or item was submitted), over done assignments with both times. It is elapsed
time, pauses included (a tab left open counts), which is why the median is shown beside the mean.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import date, timedelta
from typing import Any

import numpy as np
from django.db import connection
from django.db.models import Aggregate, Avg, Count, DurationField, ExpressionWrapper, F
from django.db.models.functions import TruncDate
from django.utils import timezone

from annotation.agreement import alpha_nominal_counts, value_counts
from annotation.gold import DECIDABLE
from annotation.models import Assignment, Item, Judgment, Project
from annotation.task_types import get_task_type, project_settings
from qc.readings import NO_VARIATION, TOO_FEW
from qc.reports.snapshots import inline_limit


class Median(Aggregate):
    """PostgreSQL's percentile_cont(0.5) over a duration (other databases, the SQLite demo: no median)."""

    function = "percentile_cont"
    template = "%(function)s(0.5) WITHIN GROUP (ORDER BY %(expressions)s)"
    output_field = DurationField()


def _worked() -> ExpressionWrapper:
    return ExpressionWrapper(F("completed_at") - F("started_at"), output_field=DurationField())


def _seconds(value: timedelta | None) -> float | None:
    return None if value is None else round(value.total_seconds(), 1)


def work_times(*, project: Project) -> dict[str, Any]:
    """{"kinds": [kind, ...], "overall": {kind: {n, median, mean}}, "by_user": {user_id: {kind: {...}}}}
    in seconds, over done assignments with a start and an end; two queries."""
    done = Assignment.objects.filter(
        project=project, status=Assignment.Status.DONE, started_at__isnull=False, completed_at__isnull=False
    ).order_by()
    figures = {"n": Count("id"), "mean": Avg(_worked())}
    if connection.vendor == "postgresql":
        figures["median"] = Median(_worked())
    overall = {}
    for row in done.values("kind").annotate(**figures):
        overall[row["kind"]] = _figures(row)
    by_user: dict[int, dict[str, dict]] = defaultdict(dict)
    for row in done.values("user_id", "kind").annotate(**figures):
        by_user[row["user_id"]][row["kind"]] = _figures(row)
    kinds = [k for k in Assignment.Kind.values if k in overall]
    return {"kinds": kinds, "overall": overall, "by_user": dict(by_user)}


def _figures(row: dict) -> dict[str, Any]:
    return {"n": row["n"], "median": _seconds(row.get("median")), "mean": _seconds(row["mean"])}


def per_day(*, project: Project, judgments: bool = True) -> dict[str, dict[date, int]]:
    """{"items": all items but drafts by the day they were created (imports included: progress),
    "written": the same without imports, "judgments": judgments by the day they were given}; days in
    the current time zone; two queries (one without `judgments`)."""
    tz = timezone.get_current_timezone()
    items: dict[date, int] = defaultdict(int)
    written: dict[date, int] = defaultdict(int)
    rows = (
        Item.objects.filter(project=project)
        .exclude(status=Item.Status.DRAFT)
        .annotate(day=TruncDate("created_at", tzinfo=tz))
        .values("day", "source")
        .annotate(n=Count("id"))
        .order_by()
    )
    for row in rows:
        items[row["day"]] += row["n"]
        if row["source"] != Item.Source.IMPORT:
            written[row["day"]] += row["n"]
    if not judgments:
        return {"items": dict(items), "written": dict(written), "judgments": {}}
    by_day = dict(
        Judgment.objects.filter(project=project)
        .annotate(day=TruncDate("created_at", tzinfo=tz))
        .values_list("day")
        .annotate(n=Count("id"))
        .order_by()
    )
    return {"items": dict(items), "written": dict(written), "judgments": by_day}


def throughput_rows(days: dict[str, dict[date, int]], *, last: int = 14) -> list[dict[str, Any]]:
    """The last `last` days with any activity, newest first: {"day", "written", "judgments"}."""
    active = sorted(set(days["written"]) | set(days["judgments"]), reverse=True)[:last]
    return [{"day": d, "written": days["written"].get(d, 0), "judgments": days["judgments"].get(d, 0)} for d in active]


def alpha_with_reason(counts: np.ndarray) -> tuple[float | None, str]:
    """Krippendorff's alpha (nominal) from value counts, and why it is undefined when it is."""
    alpha = alpha_nominal_counts(counts) if counts.size else None
    if alpha is not None:
        return alpha, ""
    pairable = counts[counts.sum(axis=1) >= 2] if counts.size else counts
    return None, TOO_FEW if pairable.shape[0] == 0 else NO_VARIATION


def category_agreement(*, project: Project) -> dict[str, Any] | None:
    """{"overall": (alpha, reason, judgments), "categories": [(name, alpha, reason, judgments), ...]}
    over the judges' values (the task type's agreement_value; the author is not counted) of decidable
    items, by the item's category ("" for items without one); None when the task type has no judging
    or the project is too big to read here. Two queries."""
    task_type = get_task_type(project.task_type)
    rule = task_type.judging_rule(project_settings(project))
    if rule is None:
        return None
    judgments = Judgment.objects.filter(project=project, kind=rule.kind, item__status__in=DECIDABLE).order_by()
    # Is there a judgment past the limit? One id read at that offset, cheaper than a count of a big project.
    if list(judgments.values_list("pk")[inline_limit() : inline_limit() + 1]):
        return None
    rows = judgments.values_list("item_id", "item__concept__category__name", "value")
    units: dict[int, list] = defaultdict(list)
    category_of: dict[int, str] = {}
    for item_id, category, value in rows:
        answer = task_type.agreement_value(value or {})
        category_of[item_id] = category or ""
        if answer is not None:
            units[item_id].append(answer if isinstance(answer, str | int | float | bool) else repr(answer))

    def figure(item_ids: list[int]) -> tuple[float | None, str, int]:
        domain: dict[Any, int] = {}
        unit_idx, cols = [], []
        for u, item_id in enumerate(item_ids):
            for answer in units[item_id]:
                unit_idx.append(u)
                cols.append(domain.setdefault(answer, len(domain)))
        counts = value_counts(
            np.asarray(unit_idx, dtype=np.int64),
            np.asarray(cols, dtype=np.int64),
            n_units=len(item_ids),
            n_values=len(domain),
        )
        alpha, reason = alpha_with_reason(counts)
        return alpha, reason, len(unit_idx)

    by_category: dict[str, list[int]] = defaultdict(list)
    for item_id, category in category_of.items():
        by_category[category].append(item_id)
    return {
        "overall": figure(sorted(category_of)),
        "categories": [(name, *figure(ids)) for name, ids in sorted(by_category.items())],
    }
