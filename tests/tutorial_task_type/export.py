"""One exported row per item: the sentence, the gold label, the author's and the judges' labels.

Split: "gold" for items with a gold label, "no_gold" for ties and items still waiting for labels.
"""

from __future__ import annotations

from typing import Any

import pyarrow as pa

from annotation.task_types.base import DataCardStats, ExportRecord

FIELDS = ("id", "text", "label", "author_label", "judge_labels", "judges")


def export_row(record: ExportRecord) -> dict[str, Any]:
    gold = record.gold
    return {
        "id": record.item.external_id,
        "text": record.item.payload.get("text", ""),
        "label": gold.details.get("label") if gold is not None and gold.outcome == "gold" else None,
        "author_label": record.item.payload.get("label") or None,
        "judge_labels": [j.value.get("label") for j in record.judgments],
        "judges": [j.user_code for j in record.judgments],
    }


def export_split(record: ExportRecord) -> str:
    return "gold" if record.gold is not None and record.gold.outcome == "gold" else "no_gold"


def parquet_schema() -> pa.Schema:
    return pa.schema(
        [
            ("id", pa.string()),
            ("text", pa.string()),
            ("label", pa.string()),
            ("author_label", pa.string()),
            ("judge_labels", pa.list_(pa.string())),
            ("judges", pa.list_(pa.string())),
        ]
    )


def datacard_text(stats: DataCardStats) -> str:
    counts = ", ".join(f"{split}: {n}" for split, n in sorted(stats.counts.items()))
    return (
        "One sentence per row with its sentiment (positive, negative or neutral).\n\n"
        "## Protocol\n\n"
        "An author writes a sentence and the sentiment they meant; two judges label it without seeing the\n"
        "author's label. `label` is the judges' label when both agree; when they disagree the row is in\n"
        "`no_gold` with an empty `label`.\n\n"
        f"## Rows\n\n{counts}\n\n"
    )
