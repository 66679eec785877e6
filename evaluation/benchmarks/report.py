"""A benchmark run's report: overall accuracy, breakdowns by endpoint, template, category, source,
split, language and label (each with a seeded 95% bootstrap interval), the mean and spread over
templates per endpoint, the human baseline, the unparsed replies and, for an open-ended run, its
judged accuracy beside the multiple-choice accuracy of the same items.

Rows come from Prediction and BenchmarkCase (one query each); the maths is evaluation/benchmarks/
metrics.py (pure). An unparsed reply counts as wrong; a call that failed for good has no reply and
is left out of every accuracy (counted apart, `without_reply`): an average over calls that have no
result would score an outage, not the model. An open-ended reply counts once a reviewer has judged it
(until then it is unparsed, rule "awaiting_judgment").

Language: items carry no language of their own (annotation's Item has no language field; a project
lists its languages). When the project has exactly one language every item is in it; with several,
the item's language is unknown and its group is "" (the run's `language` parameter is the prompt's
language, not the item's).

Label: the gold answer under the run's gold key (a letter for choice tasks, a label word for label tasks).

Human baseline (the issue's and the papers' definitions): the majority of each item's human answers
(BenchmarkItem.human_answers, in annotator order) against the gold key, one outcome per item. Choice tasks: the
answerers' majority against the author's (or the majority) key, ties to the answer given first
(metrics.answerers_majority_baseline). Label tasks: the validators' majority label against gold, a pair with
no majority label counting as the task type's `human_no_majority` ("entailment", IndoNLI Appendix C;
metrics.validators_baseline).
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from annotation.task_types import get_task_type
from evaluation.benchmarks import metrics
from evaluation.models import BenchmarkCase, Prediction, Run

GROUPS = ("endpoint", "template", "category", "source", "split", "language", "label")
AWAITING_JUDGMENT = "awaiting_judgment"  # evaluation/benchmarks/kind.py (not imported: it registers the kind)
CALL_FAILED = "call_failed"  # the rule of a prediction whose call failed for good (evaluation/benchmarks/kind.py)


def _summary(correct: list[bool]) -> dict[str, Any]:
    # metrics.SEED: the same run gives the same intervals in every report
    return metrics.summarise(correct, seed=metrics.SEED)


def _score(score: metrics.Score) -> dict[str, Any]:
    return score._asdict()


def item_language(run: Run) -> str:
    """Every item's language in this run's project: its one language, or "" (unknown) when it has several."""
    if run.project_id is None:
        return ""
    codes = list(run.project.languages.values_list("code", flat=True)[:2])
    return codes[0] if len(codes) == 1 else ""


def human_baseline(*, run: Run) -> dict[str, Any] | None:
    """The human baseline of the run's items (module doc), with its method; None when no item has one."""
    spec = get_task_type(run.project.task_type).benchmark() if run.project_id is not None else None
    no_majority = spec.human_no_majority if spec is not None else None
    rows = [
        metrics.HumanRow(gold, answers)
        for gold, answers in BenchmarkCase.objects.filter(run=run).values_list("gold", "human_answers")
    ]
    if no_majority is None:
        score, method = metrics.answerers_majority_baseline(rows, seed=metrics.SEED), "answerers_majority"
    else:
        score = metrics.validators_baseline(rows, no_majority=no_majority, seed=metrics.SEED)
        method = "validators_majority"
    if not score.n:
        return None
    return {**score._asdict(), "method": method, "no_majority": no_majority}


def benchmark_report(*, run: Run, multiple_choice_run: Run | None = None) -> dict[str, Any]:
    """The run's figures (module doc). `multiple_choice_run`: for an open-ended run, the multiple-choice
    run whose accuracy on the same items goes beside the open-ended accuracy (section `open_ended`)."""
    rows = list(
        Prediction.objects.filter(run=run)
        .order_by("item_id", "endpoint__name", "template")
        .values_list(
            "item_id",
            "endpoint__name",
            "template",
            "case__category",
            "case__source",
            "case__split",
            "parsed",
            "correct",
            "answer",
            "gold",
            "rule",
            "reply",
        )
    )
    language = item_language(run)
    scored = [
        metrics.ScoredPrediction(
            correct=row[7],
            parsed=row[6],
            endpoint=row[1],
            template=row[2],
            category=row[3],
            language=language,
            source=row[4],
            split=row[5],
            label=row[9],
            item=row[0],
        )
        for row in rows
        if row[10] != CALL_FAILED
    ]
    groups: dict[str, dict[str, list[bool]]] = {group: defaultdict(list) for group in GROUPS}
    correct = []
    for prediction in scored:
        right = prediction.parsed and prediction.correct  # unparsed is wrong
        correct.append(right)
        for group in GROUPS:
            groups[group][getattr(prediction, group)].append(right)
    overall = _summary(correct)
    spread = metrics.template_spread(scored, by="endpoint", template="template", seed=metrics.SEED)
    report = {
        "run": run.pk,
        "status": run.status,
        "gold_key": run.parameters.get("gold_key", ""),
        "open_ended_run": bool(run.parameters.get("open_ended")),
        "items": BenchmarkCase.objects.filter(run=run).count(),
        "predictions": len(rows),
        "parsed": sum(1 for row in rows if row[6]),
        "without_reply": len(rows) - len(scored),
        "accuracy": overall["accuracy"],
        "overall": overall,
        **{
            f"by_{group}": {name: _summary(values) for name, values in sorted(by.items())}
            for group, by in groups.items()
        },
        "template_spread": {
            endpoint: {
                "mean": row.mean,
                "std": row.std,
                "min": row.min,
                "max": row.max,
                "templates": len(row.by_template),
                "by_template": {name: _score(score) for name, score in row.by_template.items()},
            }
            for endpoint, row in spread.items()
        },
        "human_baseline": human_baseline(run=run),
        "unparsed": [
            {"item": row[0], "endpoint": row[1], "template": row[2], "rule": row[10], "reply": row[11]}
            for row in rows
            if not row[6]
        ],
    }
    if run.parameters.get("open_ended"):
        report["open_ended"] = open_ended_report(run=run, multiple_choice_run=multiple_choice_run)
    return report


def open_ended_report(*, run: Run, multiple_choice_run: Run | None = None) -> dict[str, Any]:
    """An open-ended run's judged accuracy, and (given a multiple-choice run of the same project) the
    multiple-choice accuracy of the same items: the items with at least one judged open-ended reply,
    every prediction of the multiple-choice run on them (all its templates). Per endpoint too, matched
    by endpoint name; an endpoint the multiple-choice run did not ask has no multiple-choice figure.
    The paper's Section 7.1 compares exactly this: 100 questions asked both ways."""
    judged = list(
        Prediction.objects.filter(run=run, judged_correct__isnull=False)
        .order_by("item_id", "endpoint__name", "template")
        .values_list("item_id", "endpoint__name", "judged_correct")
    )
    total = Prediction.objects.filter(run=run).count()
    items = sorted({item for item, _endpoint, _right in judged})
    open_by: dict[str, list[bool]] = defaultdict(list)
    for _item, endpoint, right in judged:
        open_by[endpoint].append(right)
    section: dict[str, Any] = {
        "judged": len(judged),
        "unjudged": total - len(judged),
        "items": len(items),
        "accuracy": _summary([right for _item, _endpoint, right in judged]),
        "multiple_choice_run": multiple_choice_run.pk if multiple_choice_run is not None else None,
        "multiple_choice": None,
        "by_endpoint": {
            name: {"open_ended": _summary(values), "multiple_choice": None} for name, values in open_by.items()
        },
    }
    if multiple_choice_run is None:
        return section
    mc_rows = list(
        Prediction.objects.filter(run=multiple_choice_run, item_id__in=items).values_list(
            "endpoint__name", "parsed", "correct"
        )
    )
    mc_by: dict[str, list[bool]] = defaultdict(list)
    for endpoint, parsed, right in mc_rows:
        mc_by[endpoint].append(parsed and right)
    section["multiple_choice"] = _summary([parsed and right for _endpoint, parsed, right in mc_rows])
    section["multiple_choice_items"] = len(
        set(Prediction.objects.filter(run=multiple_choice_run, item_id__in=items).values_list("item_id", flat=True))
    )
    for name, row in section["by_endpoint"].items():
        row["multiple_choice"] = _summary(mc_by[name]) if name in mc_by else None
    return section
