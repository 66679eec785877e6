"""The report's sections, computed from the core's plain rows (ReportRows): no database here."""

from __future__ import annotations

from collections import Counter
from typing import Any

from annotation.agreement import alpha_nominal
from annotation.task_types.base import ReportRows
from tests.tutorial_task_type.payload import LABELS


def report_sections(rows: ReportRows) -> dict[str, Any]:
    by_item: dict[int, list[str]] = {}
    for judgment in rows.judgments:
        by_item.setdefault(judgment.item_id, []).append(judgment.value.get("label"))
    outcomes = Counter(rows.gold[item.item_id].outcome for item in rows.items if item.item_id in rows.gold)
    gold_labels = Counter(
        rows.gold[item.item_id].details.get("label")
        for item in rows.items
        if item.item_id in rows.gold and rows.gold[item.item_id].outcome == "gold"
    )
    pairs = [labels for labels in by_item.values() if len(labels) >= 2]
    return {
        "items": len(rows.items),
        "judgments": len(rows.judgments),
        "outcomes": {outcome: outcomes[outcome] for outcome in ("gold", "no_gold", "pending")},
        "gold_labels": {label: gold_labels[label] for label in LABELS},
        "agreed": sum(1 for labels in pairs if len(set(labels)) == 1),
        "pairs": len(pairs),
        "alpha_nominal": alpha_nominal(by_item.values()),
    }
