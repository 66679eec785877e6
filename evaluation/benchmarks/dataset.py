"""The slice of a project a benchmark asks: which items, and each as the task type's model task.

Items come from the gold export's reader (qc.exports.gold_records: the item, its judgments, its unit)
so a benchmark sees an item exactly as the released gold set does; the gold decision is read beside
it for task types whose export does not need it. By default the gold set: items whose gold decision
says "gold" (judged, or promoted to the gold status; never excluded ones). `statuses` asks for items
in those states whatever their decision (e.g. approved items still waiting for their judges).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, NamedTuple

from annotation.models import Item, Project
from annotation.task_types import get_task_type
from annotation.task_types.base import BenchmarkItem, GoldInfo
from qc.exports import gold_records
from qc.models import GoldDecision

STATUSES = (Item.Status.GOLD, Item.Status.JUDGED, Item.Status.APPROVED)
SOURCES = tuple(Item.Source.values)


class SliceItem(NamedTuple):
    item_id: int
    category: str
    source: str
    split: str
    task: BenchmarkItem


def slice_queryset(*, project: Project, parameters: dict[str, Any]):
    if parameters.get("statuses"):
        items = Item.objects.filter(project=project, status__in=parameters["statuses"])
    else:
        items = Item.objects.filter(
            project=project,
            status__in=[Item.Status.GOLD, Item.Status.JUDGED],
            gold_decision__outcome=GoldDecision.Outcome.GOLD,
        )
    if parameters.get("categories"):
        items = items.filter(concept__category__name__in=parameters["categories"])
    if parameters.get("sources"):
        items = items.filter(source__in=parameters["sources"])
    if parameters.get("items"):
        items = items.filter(pk__in=parameters["items"])
    return items


def slice_items(*, project: Project, parameters: dict[str, Any]) -> Iterator[SliceItem]:
    """The run's items in id order, each with its gold answer under the run's gold key (items without
    one under that key are left out)."""
    task_type = get_task_type(project.task_type)
    wanted = set(slice_queryset(project=project, parameters=parameters).values_list("pk", flat=True))
    gold = {
        item_id: GoldInfo(item_id, outcome, reason, details or {})
        for item_id, outcome, reason, details in GoldDecision.objects.filter(item_id__in=wanted).values_list(
            "item_id", "outcome", "reason", "details"
        )
    }
    split_wanted = parameters.get("split") or ""
    for record in gold_records(project=project):
        item_id = record.item.item_id
        if item_id not in wanted:
            continue
        if record.gold is None and item_id in gold:
            record = record._replace(gold=gold[item_id])
        split = task_type.export_split(record) or ""
        if split_wanted and split != split_wanted:
            continue
        task = task_type.benchmark_item(record, gold_key=parameters["gold_key"])
        if task is None:
            continue
        yield SliceItem(item_id, record.item.category, record.item.source, split, task)
