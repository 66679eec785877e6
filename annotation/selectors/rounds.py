"""Judgments by round for a project's judged items (the labels-by-round page), and proposed corrections.

For reviewers and admins only: a judge never sees others' judgments before answering.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Q, QuerySet

from annotation.models import Item, Judgment, Membership
from annotation.selectors import items_visible_to
from annotation.task_types import get_task_type, project_settings

PAGE_SIZE = 100


@dataclass
class RoundRow:
    item: Item
    text: str  # the task type's summary of the item
    author_value: Any
    rounds: dict[int, list[Any]] = field(default_factory=dict)  # round -> values, in judgment order
    outcome: str = ""
    outcome_label: str = ""  # the GoldDecision.Outcome choice's translated label
    gold: Any = None
    reason: str = ""


def judged_items_by_round(*, membership: Membership, page: int = 1) -> tuple[list[RoundRow], int]:
    """Items the member may see (items_visible_to) in judging (judging_round >= 1) with their judges'
    values by round and their gold decision; one page of PAGE_SIZE and the number of such items. A fixed
    number of queries per page."""
    project = membership.project
    tt = get_task_type(project.task_type)
    rule = tt.judging_rule(project_settings(project))
    items_qs = items_visible_to(membership=membership).filter(judging_round__gte=1).order_by("id")
    total = items_qs.count()
    start = (max(page, 1) - 1) * PAGE_SIZE
    items = list(items_qs.select_related("current_version", "concept", "gold_decision")[start : start + PAGE_SIZE])
    judgments: dict[int, dict[int, list[Any]]] = defaultdict(lambda: defaultdict(list))
    filters = Q(item__in=items)
    if rule is not None:
        filters &= Q(kind=rule.kind)
    for item_id, round_, value in (
        Judgment.objects.filter(filters).order_by("item_id", "round", "id").values_list("item_id", "round", "value")
    ):
        judgments[item_id][round_].append(tt.agreement_value(value))
    rows = []
    for item in items:
        payload = item.current_version.payload if item.current_version else {}
        decision = getattr(item, "gold_decision", None)
        rows.append(
            RoundRow(
                item=item,
                text=tt.summary(payload) if payload else "",
                author_value=tt.agreement_value(payload),
                rounds=dict(sorted(judgments[item.pk].items())),
                outcome=decision.outcome if decision else "",
                outcome_label=decision.get_outcome_display() if decision else "",
                gold=(decision.details or {}).get("label", (decision.details or {}).get("majority"))
                if decision
                else None,
                reason=decision.reason if decision else "",
            )
        )
    return rows, total


def judgments_visible_to(*, membership: Membership) -> QuerySet[Judgment]:
    """The judgments on items the member may see (items_visible_to)."""
    return Judgment.objects.filter(project=membership.project, item__in=items_visible_to(membership=membership))


def proposed_corrections(*, membership: Membership) -> list[Judgment]:
    """Judgments on items the member may see that flag an error and were not sent to the author yet,
    oldest first; each with `item_text`, the task type's summary of the item's current text."""
    tt = get_task_type(membership.project.task_type)
    judgments = list(
        judgments_visible_to(membership=membership)
        .filter(flags__error=True)
        # a missing key compares as NULL, which a plain exclude() would drop too
        .filter(Q(flags__correction_status__isnull=True) | ~Q(flags__correction_status="sent"))
        .select_related("item__current_version", "user")
        .order_by("created_at", "id")[:PAGE_SIZE]
    )
    for judgment in judgments:
        version = judgment.item.current_version
        judgment.item_text = tt.summary(version.payload) if version else ""
    return judgments
