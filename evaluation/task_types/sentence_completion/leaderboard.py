"""ArabCulture's leaderboard over every benchmark run of a project: per model (endpoint), accuracy by
mode (MCQ, completion), prompt language, location context, country, region, topic and country-specific
versus shared, and the MCQ minus completion gap.

The mode, language and context come from the built-in template names (`<mode>_<lang>_<context>`,
annotation/task_types/sentence_completion/benchmark.py); predictions of other templates are left out.
When an endpoint ran a template more than once, the latest run's prediction of an item counts (a rerun
replaces, never doubles). An unparsed reply or a failed call counts as wrong, as in the core report.
`leaderboard` is pure; `leaderboard_rows` builds its input with two queries.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from annotation.models import Item, Project
from annotation.task_types.sentence_completion.benchmark import CONTEXT_LABELS, LANGUAGE_LABELS
from evaluation.models import Prediction

MODES = ("mcq", "completion")
GROUPS = ("mode", "language", "context", "country", "region", "topic", "relevance")


@dataclass(frozen=True)
class Row:
    run: int
    model: str  # the endpoint's name
    template: str
    item: int
    right: bool  # parsed and correct
    country: str
    region: str
    topic: str
    relevance: str  # "country_specific" | "shared" | "unknown"


def template_parts(name: str) -> tuple[str, str, str] | None:
    """("mcq" | "completion", "en" | "ar", "none" | "region" | "country") of a built-in template name."""
    parts = name.split("_")
    if len(parts) != 3 or parts[0] not in MODES or parts[1] not in LANGUAGE_LABELS or parts[2] not in CONTEXT_LABELS:
        return None
    return parts[0], parts[1], parts[2]


def relevance(relevant_to_other_countries: Any) -> str:
    return {False: "country_specific", True: "shared"}.get(relevant_to_other_countries, "unknown")


def _score(values: list[bool]) -> dict[str, Any]:
    return {"n": len(values), "correct": sum(values), "accuracy": round(sum(values) / len(values), 4)}


def leaderboard(rows: list[Row]) -> dict[str, Any]:
    latest: dict[tuple[str, str, int], Row] = {}
    for row in rows:
        if template_parts(row.template) is None:
            continue
        key = (row.model, row.template, row.item)
        if key not in latest or row.run > latest[key].run:
            latest[key] = row
    by_model: dict[str, dict[str, dict[str, list[bool]]]] = defaultdict(lambda: {g: defaultdict(list) for g in GROUPS})
    overall: dict[str, list[bool]] = defaultdict(list)
    for row in sorted(latest.values(), key=lambda r: (r.model, r.template, r.item)):
        mode, language, context = template_parts(row.template)  # type: ignore[misc]
        overall[row.model].append(row.right)
        values = {
            "mode": mode,
            "language": language,
            "context": context,
            "country": row.country,
            "region": row.region,
            "topic": row.topic,
            "relevance": row.relevance,
        }
        for group, value in values.items():
            by_model[row.model][group][value].append(row.right)
    models = {}
    for model in sorted(by_model):
        groups = by_model[model]
        entry: dict[str, Any] = {"overall": _score(overall[model])}
        for group in GROUPS:
            entry[f"by_{group}"] = {name: _score(v) for name, v in sorted(groups[group].items())}
        mcq, completion = entry["by_mode"].get("mcq"), entry["by_mode"].get("completion")
        entry["mcq_minus_completion"] = (
            round(mcq["accuracy"] - completion["accuracy"], 4) if mcq and completion else None
        )
        models[model] = entry
    return {"predictions": len(latest), "models": models}


def leaderboard_rows(*, project: Project) -> list[Row]:
    predictions = list(
        Prediction.objects.filter(run__project=project, run__kind="benchmark").values_list(
            "run_id", "endpoint__name", "template", "item_id", "parsed", "correct", "case__category"
        )
    )
    items = {
        pk: (country or "", region or "", other)
        for pk, country, region, other in Item.objects.filter(pk__in={p[3] for p in predictions}).values_list(
            "pk",
            "current_version__payload__country",
            "current_version__payload__region",
            "current_version__payload__relevant_to_other_countries",
        )
    }
    rows = []
    for run, model, template, item, parsed, correct, topic in predictions:
        country, region, other = items.get(item, ("", "", None))
        rows.append(Row(run, model, template, item, bool(parsed and correct), country, region, topic, relevance(other)))
    return rows


def project_leaderboard(*, project: Project) -> dict[str, Any]:
    return leaderboard(leaderboard_rows(project=project))
