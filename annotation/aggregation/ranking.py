"""A ranking of the models behind a project's items (a task type's `model_ranking`, e.g. Bradley-Terry
over pairwise comparisons with bootstrap intervals), fitted by the aggregation task in the background and
saved whole, and the report's read of the last one.

The fit reads what the task type needs from the report's rows: its settings, the decidable items'
categories and payloads, and their judgments of the judging kind (two queries). The bootstrap (200 fits,
~0.5 s each on 50,000 pairs) never runs on a page's request.
"""

from __future__ import annotations

import json
import time
from typing import Any

from django.db import transaction
from django.db.models import TextField
from django.db.models.functions import Cast
from django.utils import timezone

from annotation.models import Item, Judgment, ModelRanking, Project
from annotation.task_types import get_task_type, project_settings
from annotation.task_types.base import ItemRecord, JudgmentRecord, RankedModels, ReportRows, ranks_models

# Items the published rule decides (as the report reads them): approved and later.
DECIDABLE = (Item.Status.APPROVED, Item.Status.JUDGED, Item.Status.GOLD, Item.Status.EXCLUDED)


def ranking_applies(project: Project) -> bool:
    """Whether the project's models are ranked: its task type ranks models and the model fit is on."""
    return project.aggregation_model != "off" and ranks_models(get_task_type(project.task_type))


def ranking_rows(*, project: Project) -> ReportRows:
    """The report rows a ranking reads (no gold, no annotators, no worked times). Two queries."""
    settings = project_settings(project)
    rule = get_task_type(project.task_type).judging_rule(settings)
    memo: dict[str, Any] = {}

    def decoded(text: str | None) -> Any:
        if not text:
            return {}
        if text not in memo:
            memo[text] = json.loads(text) or {}
        return memo[text]

    items = tuple(
        ItemRecord(
            item_id=pk,
            external_id=external_id or "",
            status=status,
            source="",
            author_id=None,
            author_code="",
            unit_id=None,
            unit_name="",
            category=category or "",
            unit_data={},
            slot=0,
            judging_round=0,
            payload=(json.loads(payload) if payload else None) or {},
        )
        for pk, external_id, status, category, payload in Item.objects.filter(project=project, status__in=DECIDABLE)
        .values_list(
            "pk", "external_id", "status", "concept__category__name", Cast("current_version__payload", TextField())
        )
        .order_by("pk")
    )
    judgments = Judgment.objects.filter(project=project, item__status__in=DECIDABLE)
    if rule is not None:
        judgments = judgments.filter(kind=rule.kind)
    records = tuple(
        JudgmentRecord(
            judgment_id=jid,
            item_id=item_id,
            user_id=user_id,
            user_code="",
            round=round_,
            value=decoded(value),
            flags={},
        )
        for jid, item_id, user_id, round_, value in judgments.values_list(
            "pk", "item_id", "user_id", "round", Cast("value", TextField())
        ).order_by("item_id", "pk")
    )
    return ReportRows(settings=settings, seed=project.plan_seed, items=items, judgments=records, gold={}, annotators=())


@transaction.atomic
def model_ranking_save(*, project: Project, ranked: RankedModels, seconds: float) -> ModelRanking:
    """Replace the project's last ranking with `ranked`."""
    # The project row's lock orders two saves of the same project (a slow fit finishing after a newer one).
    Project.objects.select_for_update().filter(pk=project.pk).values_list("pk").first()
    record, _ = ModelRanking.objects.update_or_create(
        project=project,
        defaults={
            "ranking": ranked.models,
            "pairs": ranked.pairs,
            "resamples": ranked.resamples,
            "fitted_at": timezone.now(),
            "seconds": round(seconds, 3),
        },
    )
    return record


def model_ranking_clear(*, project: Project) -> None:
    """Forget the project's last ranking (the fit turned off, or nothing left to rank)."""
    ModelRanking.objects.filter(project=project).delete()


def model_ranking_refit(*, project: Project) -> ModelRanking | None:
    """Rank the project's models now and save the ranking (None: nothing to rank; the last ranking is
    then cleared). The saved seconds are the fit's and its bootstrap's, without reading and saving."""
    task_type = get_task_type(project.task_type)
    if not ranking_applies(project):
        model_ranking_clear(project=project)
        return None
    rows = ranking_rows(project=project)
    started = time.perf_counter()
    ranked = task_type.model_ranking(rows)
    seconds = time.perf_counter() - started
    if ranked is None or not ranked.models:
        model_ranking_clear(project=project)
        return None
    return model_ranking_save(project=project, ranked=ranked, seconds=seconds)


# --- reads ------------------------------------------------------------------------------------------


def last_model_ranking(*, project: Project) -> ModelRanking | None:
    """The project's last ranking. One query."""
    return ModelRanking.objects.filter(project=project).first()
