"""The aggregation model's inputs read from the database, its fit saved, and the reads pages and
exports make of the last fit.

Inputs: every decidable item's judgments of the judging kind, in the project's annotator order, given to
the task type's `categorical_item` with the published rule's outcome on the same case (decided through
the gold memo, as the gold engines decide it). A fit replaces the project's annotator and item rows
whole, in one transaction, written in bulk.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import TextField
from django.db.models.functions import Cast
from django.utils import timezone

from annotation.aggregation.fitting import Coded, Fit, encode
from annotation.aggregation.fitting import fit as fitting_fit
from annotation.annotators import annotator_ranks, project_annotators
from annotation.models import AggregatedAnnotator, AggregatedItem, AggregationFit, Item, Judgment, Project
from annotation.task_types import get_task_type, project_settings
from annotation.task_types.base import GoldCase, JudgmentRow, has_categorical_judgments
from annotation.task_types.memo import GoldMemo

# Items the published rule decides (as qc.gold does): approved and later, rejected and drafts left out.
DECIDABLE = (Item.Status.APPROVED, Item.Status.JUDGED, Item.Status.GOLD, Item.Status.EXCLUDED)
BULK = 5000


def aggregation_applies(project: Project) -> bool:
    """Whether the project fits a model: its task type gives categorical judgments and the model is on."""
    return project.aggregation_model != "off" and has_categorical_judgments(get_task_type(project.task_type))


@dataclass(frozen=True)
class FitInputs:
    coded: Coded
    rule_labels: dict[int, str | None]  # item id -> the published rule's label


def _decoded(memo: dict[str, Any], text: str | None) -> Any:
    if text is None:
        return {}
    value = memo.get(text)
    if value is None:
        if len(memo) > 50_000:  # free text in values could make every one distinct
            memo.clear()
        value = memo[text] = json.loads(text)
    return value


def fit_inputs(*, project: Project) -> FitInputs:
    """The project's categorical judgments and each judged item's rule label. Two queries, plus the
    annotator order's."""
    task_type = get_task_type(project.task_type)
    settings = project_settings(project)
    rule = task_type.judging_rule(settings)
    ranks = annotator_ranks(project_annotators(project_ids=[project.pk]).get(project.pk, []))
    last = len(ranks)
    judgments = Judgment.objects.filter(project=project)
    if rule is not None:
        judgments = judgments.filter(kind=rule.kind)
    memo: dict[str, Any] = {}
    by_item: dict[int, list[tuple[int, JudgmentRow]]] = {}
    for jid, item_id, user_id, round_, value, flags in judgments.values_list(
        "pk", "item_id", "user_id", "round", Cast("value", TextField()), Cast("flags", TextField())
    ).order_by():
        row = JudgmentRow(jid, user_id, round_, _decoded(memo, value), _decoded(memo, flags))
        by_item.setdefault(item_id, []).append(((ranks.get(user_id, last) << 32) + user_id, row))
    gold = GoldMemo(task_type)
    triples: list[tuple[int, int, str]] = []
    rule_labels: dict[int, str | None] = {}
    items = (
        Item.objects.filter(project=project, status__in=DECIDABLE)
        .values_list("pk", "author_id", "judging_round", Cast("current_version__payload", TextField()))
        .order_by("pk")
    )
    for item_id, author_id, judging_round, payload in items:
        pairs = by_item.get(item_id)
        if not pairs:
            continue
        pairs.sort(key=lambda pair: pair[0])
        case = GoldCase(_decoded(memo, payload) or {}, tuple(row for _, row in pairs), settings, judging_round)
        categorical = task_type.categorical_item(
            item_id=item_id, author_id=author_id, case=case, outcome=gold.decide(case)
        )
        if categorical is None or not categorical.judgments:
            continue
        triples.extend(categorical.judgments)
        rule_labels[item_id] = categorical.rule_label
    return FitInputs(coded=encode(triples), rule_labels=rule_labels)


@transaction.atomic
def aggregation_fit_save(
    *, project: Project, fit: Fit, rule_labels: dict[int, str | None], fitted_at: datetime, seconds: float
) -> AggregationFit:
    """Replace the project's last fit (model row, annotator rows, item rows) with `fit`."""
    # The project row's lock orders two saves of the same project (a slow fit finishing after a newer one).
    Project.objects.select_for_update().filter(pk=project.pk).values_list("pk").first()
    AggregatedItem.objects.filter(project=project).delete()
    AggregatedAnnotator.objects.filter(project=project).delete()
    AggregatedAnnotator.objects.bulk_create(
        [
            AggregatedAnnotator(
                project=project,
                user_id=a.annotator_id,
                judgments=a.judgments,
                ability=round(a.ability, 6),
                ability_low=round(a.low, 6),
                ability_high=round(a.high, 6),
                parameters=a.parameters,
            )
            for a in fit.annotators
        ],
        batch_size=BULK,
    )
    labels = fit.labels
    top = fit.posteriors.argmax(axis=1)
    disagreements = 0
    rows = []
    for row, item_id in enumerate(fit.items):
        label = labels[top[row]]
        rule_label = rule_labels.get(item_id)
        agrees = None if rule_label is None else label == rule_label
        disagreements += agrees is False
        rows.append(
            AggregatedItem(
                item_id=item_id,
                project_id=project.pk,
                posterior={name: round(float(p), 6) for name, p in zip(labels, fit.posteriors[row], strict=True)},
                label=label,
                probability=round(float(fit.posteriors[row, top[row]]), 6),
                rule_label=rule_label or "",
                agrees=agrees,
            )
        )
    AggregatedItem.objects.bulk_create(rows, batch_size=BULK)
    record, _ = AggregationFit.objects.update_or_create(
        project=project,
        defaults={
            "model": fit.model,
            "parameters": {**fit.hyperparameters, "iterations": fit.iterations},
            "labels": list(labels),
            "priors": {label: round(p, 6) for label, p in fit.priors.items()},
            "judgments": fit.judgments,
            "items": len(fit.items),
            "disagreements": disagreements,
            "fitted_at": fitted_at,
            "seconds": round(seconds, 3),
        },
    )
    return record


@transaction.atomic
def aggregation_fit_clear(*, project: Project) -> None:
    """Forget the project's last fit (its model turned off, or no judgments left)."""
    AggregatedItem.objects.filter(project=project).delete()
    AggregatedAnnotator.objects.filter(project=project).delete()
    AggregationFit.objects.filter(project=project).delete()


# --- reads ------------------------------------------------------------------------------------------


def last_fit(*, project: Project) -> AggregationFit | None:
    return AggregationFit.objects.filter(project=project).first()


def item_aggregate(*, item_id: int) -> AggregatedItem | None:
    return AggregatedItem.objects.filter(item_id=item_id).first()


def annotator_abilities(*, project: Project) -> dict[int, AggregatedAnnotator]:
    """user id -> their estimate in the last fit. One query."""
    return {a.user_id: a for a in AggregatedAnnotator.objects.filter(project=project).order_by()}


def disagreeing_items(*, project: Project, limit: int = 50) -> list[AggregatedItem]:
    """Items where the model's label differs from the rule's, the model's most confident first (those
    most worth a second look). One query."""
    return list(
        AggregatedItem.objects.filter(project=project, agrees=False)
        .select_related("item")
        .only("item_id", "label", "probability", "rule_label", "posterior", "item__external_id")
        .order_by("-probability", "item_id")[:limit]
    )


def posteriors_between(*, project: Project, first: int, last: int) -> dict[int, dict[str, float]]:
    """item id -> posterior for the items with ids in [first, last] (an export's chunk). One query."""
    return dict(
        AggregatedItem.objects.filter(project=project, item_id__gte=first, item_id__lte=last)
        .values_list("item_id", "posterior")
        .order_by()
    )


def aggregation_refit(*, project: Project) -> AggregationFit | None:
    """Fit the project's model on its judgments now and save it (None: nothing to fit; the last fit is
    then cleared). The fit's own seconds exclude reading and saving."""
    if not aggregation_applies(project):
        aggregation_fit_clear(project=project)
        return None
    inputs = fit_inputs(project=project)
    if not inputs.coded.size:
        aggregation_fit_clear(project=project)
        return None
    started = time.perf_counter()
    fit = fitting_fit(project.aggregation_model, inputs.coded)
    seconds = time.perf_counter() - started
    return aggregation_fit_save(
        project=project, fit=fit, rule_labels=inputs.rule_labels, fitted_at=timezone.now(), seconds=seconds
    )
