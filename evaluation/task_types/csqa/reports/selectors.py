"""The human vs LLM report of a project, read from its items, their provenance and their reviews.

Rows are built here and handed to the pure reports (lexical.py, qc_yield.py). Outcome of an item:
approved (or further: judged, gold, excluded) with a "revise" review before -> approved after
revision, without -> approved unchanged; rejected -> rejected; anything else -> not reviewed yet.
Error types are every error type its reviews named.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from annotation.models import Item, Project
from evaluation.task_types.csqa.reports.lexical import LexicalReport, Row, lexical_report
from evaluation.task_types.csqa.reports.qc_yield import (
    OUTCOMES,
    REJECTED,
    REVISED,
    UNCHANGED,
    UNREVIEWED,
    YieldRow,
    qc_yield,
)
from qc.models import Review

APPROVED_OR_LATER = (Item.Status.APPROVED, Item.Status.JUDGED, Item.Status.GOLD, Item.Status.EXCLUDED)
EXAMPLES = 10


def _outcome(status: str, revised: bool) -> str:
    if status in APPROVED_OR_LATER:
        return REVISED if revised else UNCHANGED
    if status == Item.Status.REJECTED:
        return REJECTED
    return UNREVIEWED


def yield_rows(*, project: Project) -> list[YieldRow]:
    items = Item.objects.filter(project=project).values_list("pk", "source", "status", "generation__model")
    revised = set(
        Review.objects.filter(item__project=project, decision=Review.Decision.REVISE).values_list("item_id", flat=True)
    )
    error_types: dict[int, list[str]] = defaultdict(list)
    for item_id, code in Review.objects.filter(item__project=project, error_types__isnull=False).values_list(
        "item_id", "error_types__code"
    ):
        error_types[item_id].append(code)
    return [
        YieldRow(source, model or "", _outcome(status, pk in revised), tuple(sorted(error_types.get(pk, ()))))
        for pk, source, status, model in items.order_by("source", "generation__model", "pk")
    ]


def lexical_rows(*, project: Project) -> dict[str, list[Row]]:
    """Rows per source: the current version of each item that is not rejected."""
    rows: dict[str, list[Row]] = defaultdict(list)
    items = (
        Item.objects.filter(project=project)
        .exclude(status=Item.Status.REJECTED)
        .values_list(
            "source", "concept__category__name", "concept__name", "generation__concept_name", "current_version__payload"
        )
        .order_by("pk")
    )
    for source, category, concept, generated_concept, payload in items:
        if not payload:
            continue
        rows[source].append(
            Row(
                category=category or "",
                concept=concept or generated_concept or "",
                question=payload.get("question", ""),
                choices=list(payload.get("choices") or []),
            )
        )
    return rows


@dataclass
class HumanVsLLM:
    lexical: dict[str, LexicalReport]  # "llm_gen" / "llm_adapt" -> compared with human
    yield_table: list[dict[str, Any]]


def human_vs_llm(*, project: Project, examples: int = EXAMPLES) -> HumanVsLLM:
    rows = lexical_rows(project=project)
    lexical = {
        source: lexical_report({"human": rows.get("human", []), source: rows[source]}, examples=examples)
        for source in (Item.Source.LLM_GEN, Item.Source.LLM_ADAPT)
        if rows.get(source)
    }
    table = []
    for (source, model), counts in qc_yield(yield_rows(project=project)).items():
        table.append(
            {
                "source": source,
                "source_label": Item.Source(source).label,
                "model": model,
                "total": counts.total,
                "outcomes": {outcome: counts.outcomes[outcome] for outcome in OUTCOMES},
                "shares": {outcome: counts.share(outcome) for outcome in (UNCHANGED, REVISED, REJECTED)},
                "error_types": dict(counts.error_types.most_common()),
            }
        )
    return HumanVsLLM(lexical=lexical, yield_table=table)
