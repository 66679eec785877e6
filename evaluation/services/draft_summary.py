"""What a generation or adaptation run left: items created, drafts filtered by reason (for the CLI and pages)."""

from __future__ import annotations

import json
from typing import Any

from django.core.paginator import Page, Paginator
from django.db.models import Count

from evaluation.models import AdaptationState, FilteredDraft, GeneratedItem, Run


def drafts_summary(run: Run) -> dict[str, Any]:
    reasons = dict(
        FilteredDraft.objects.filter(run=run).values_list("reason").annotate(n=Count("pk")).order_by("reason")
    )
    summary: dict[str, Any] = {
        "items_created": GeneratedItem.objects.filter(run=run).count(),
        "filtered": sum(reasons.values()),
        "filtered_by_reason": reasons,
    }
    if run.kind == "llm_adapt":
        states = AdaptationState.objects.filter(run=run)
        summary["adaptation"] = {
            "questions": states.count(),
            "relevant": states.filter(relevant=True).count(),
            "irrelevant": states.filter(relevant=False).count(),
            "by_names_or_places": states.filter(relevance_reason="names_or_places").count(),
            "kept": states.filter(status=AdaptationState.Status.KEPT).count(),
        }
    return summary


DRAFT_KINDS = ("llm_gen", "llm_adapt")
FILTERED_PER_PAGE = 50


def filtered_page(run: Run, *, reason: str = "", page: Any = None) -> dict[str, Any]:
    """For the run page: items created, filtered drafts counted by reason, and one page of them (the
    reason, the detail, the model's text of the draft). Four queries however large the run."""
    reasons = list(
        FilteredDraft.objects.filter(run=run).values_list("reason").annotate(n=Count("pk")).order_by("reason")
    )
    drafts = FilteredDraft.objects.filter(run=run).only("pk", "reason", "detail", "concept_name", "record", "call_id")
    if reason:
        drafts = drafts.filter(reason=reason)
    shown: Page = Paginator(drafts.order_by("pk"), FILTERED_PER_PAGE).get_page(page)
    return {
        "items_created": GeneratedItem.objects.filter(run=run).count(),
        "reasons": reasons,
        "filtered": sum(n for _, n in reasons),
        "reason": reason,
        "page": shown,
        "rows": [(draft, _as_text(draft.record)) for draft in shown.object_list],
    }


def _as_text(record: Any) -> str:
    if record is None:
        return ""
    if isinstance(record, str):
        return record
    return json.dumps(record, ensure_ascii=False, indent=1)


CREATED_PER_PAGE = 50


def created_page(run: Run, *, page: Any = None) -> dict[str, Any]:
    """For the run page: one page of the items the run created, each with its concept and the model's
    text (what it wrote, or each adaptation step's output). Two queries however large the run."""
    created = GeneratedItem.objects.filter(run=run).only("pk", "item_id", "model", "concept_name", "steps")
    shown: Page = Paginator(created.order_by("pk"), CREATED_PER_PAGE).get_page(page)
    return {"page": shown, "rows": [(generated, _as_text(generated.steps)) for generated in shown.object_list]}
