"""KALAHI's scores of one benchmark run (scoring.py's formulas), by endpoint and by category, with the
validators' accuracy beside them (the human baseline: the share of validators' picks that are the best).

Likelihood runs: the metrics each prediction stored (reply JSON "metrics"), averaged over items; a
failed call counts 0 for every metric. Open-ended runs: chrF, BLEU and ROUGE-L differences recomputed
from the stored reply and the case's references (pure, cheap), their means and accuracies (share > 0).
"""

from __future__ import annotations

import json
from collections import defaultdict
from statistics import mean
from typing import Any

from evaluation.models import BenchmarkCase, Prediction, Run
from evaluation.task_types.cultural_prompt.scoring import OVERLAP_METRICS, open_ended_scores, references

MC_METRICS = ("mc1", "mc2", "mc2_published", "mc3")


def _metrics(prediction: Prediction) -> dict[str, float]:
    try:
        stored = json.loads(prediction.reply).get("metrics") if prediction.reply else None
    except (ValueError, AttributeError):
        stored = None
    return stored or dict.fromkeys(MC_METRICS, 0.0)


def _means(rows: list[dict[str, float]], names: tuple[str, ...]) -> dict[str, Any]:
    return {"items": len(rows), **{name: mean(r[name] for r in rows) if rows else None for name in names}}


def human_baseline(cases: list[BenchmarkCase]) -> dict[str, Any]:
    def share(group: list[BenchmarkCase]) -> float | None:
        picks = [answer == case.gold for case in group for answer in case.human_answers]
        return sum(picks) / len(picks) if picks else None

    by_category: dict[str, list[BenchmarkCase]] = defaultdict(list)
    for case in cases:
        by_category[case.category].append(case)
    return {"overall": share(cases), "by_category": {name: share(group) for name, group in sorted(by_category.items())}}


def kalahi_run_report(*, run: Run) -> dict[str, Any]:
    cases = {case.item_id: case for case in BenchmarkCase.objects.filter(run=run)}
    predictions = list(Prediction.objects.filter(run=run).select_related("endpoint").order_by("item_id", "endpoint_id"))
    open_ended = bool(run.parameters.get("open_ended"))
    report: dict[str, Any] = {
        "run": run.pk,
        "mode": "open_ended" if open_ended else run.parameters.get("mode", ""),
        "human_baseline": human_baseline(list(cases.values())),
    }
    if open_ended:
        by_endpoint: dict[str, list[dict[str, float]]] = defaultdict(list)
        for p in predictions:
            relevant, irrelevant = references(cases[p.item_id])
            if p.reply.strip() and relevant and irrelevant:
                by_endpoint[p.endpoint.name].append(open_ended_scores(p.reply, relevant, irrelevant))
        report["open_ended"] = {
            name: {
                "items": len(rows),
                **{
                    m: {"score": mean(r[m] for r in rows), "accuracy": sum(r[m] > 0 for r in rows) / len(rows)}
                    for m in OVERLAP_METRICS
                },
            }
            for name, rows in sorted(by_endpoint.items())
        }
        return report
    rows: dict[str, list[dict[str, float]]] = defaultdict(list)
    by_category: dict[str, dict[str, list[dict[str, float]]]] = defaultdict(lambda: defaultdict(list))
    for p in predictions:
        metrics = _metrics(p)
        rows[p.endpoint.name].append(metrics)
        by_category[cases[p.item_id].category][p.endpoint.name].append(metrics)
    report["endpoints"] = {name: _means(r, MC_METRICS) for name, r in sorted(rows.items())}
    report["by_category"] = {
        category: {name: _means(r, MC_METRICS) for name, r in sorted(endpoints.items())}
        for category, endpoints in sorted(by_category.items())
    }
    return report
