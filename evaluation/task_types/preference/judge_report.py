"""The judge run's figures (the paper's Tables 1 and 2), pure over plain rows, and their read.

Per endpoint and instruction language: accuracy = the share of verdicts (two per pair, one per order)
naming the human-preferred response (a verdict that can't be read, or a call that failed, counts as
wrong), per category and on average (the mean over categories, as the paper's "Avg."); `inconsistent`
= the share of pairs whose two readable verdicts name different responses (the verdict flipped with the
order); `consistent_correct` = pairs where both orders chose the human-preferred response.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from evaluation.task_types.preference.judge_prompts import parse_verdict


def judge_metrics(pairs: list[dict[str, Any]], calls: list[tuple[str, str, str, str, str]]) -> dict[str, Any]:
    """calls: (endpoint, template, unit_key, status, text)."""
    by_key = {p["key"]: p for p in pairs}
    verdicts: dict[tuple[str, str], dict[str, dict[str, str | None]]] = defaultdict(lambda: defaultdict(dict))
    for endpoint, template, unit_key, status, text in calls:
        pair_key, _, order = unit_key.rpartition("|")
        pair = by_key.get(pair_key)
        if pair is None:
            continue
        position = parse_verdict(text) if status == "done" else None
        shown = (pair["first"], pair["second"]) if order == "ab" else (pair["second"], pair["first"])
        verdicts[(endpoint, template.removeprefix("judge_"))][pair_key][order] = (
            None if position is None else shown[position - 1]
        )
    results = []
    for (endpoint, language), per_pair in sorted(verdicts.items()):
        correct = total = inconsistent = consistent_correct = unparsed = 0
        categories: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        for pair in pairs:
            got = per_pair.get(pair["key"], {})
            ab, ba = got.get("ab"), got.get("ba")
            for verdict in (ab, ba):
                hit = int(verdict == pair["chosen"])
                correct += hit
                total += 1
                unparsed += verdict is None
                categories[pair["category"]][0] += hit
                categories[pair["category"]][1] += 1
            if ab is not None and ba is not None and ab != ba:
                inconsistent += 1
            if ab == ba == pair["chosen"]:
                consistent_correct += 1
        raw = {c: 100 * h / n for c, (h, n) in sorted(categories.items())}
        per_category = {c: round(v, 2) for c, v in raw.items()}
        results.append(
            {
                "endpoint": endpoint,
                "language": language,
                "pairs": len(pairs),
                "verdicts": total,
                "accuracy": round(100 * correct / total, 2) if total else None,
                "average": round(sum(raw.values()) / len(raw), 2) if raw else None,
                "per_category": per_category,
                "inconsistent": round(inconsistent / len(pairs), 4) if pairs else None,
                "consistent_correct": round(consistent_correct / len(pairs), 4) if pairs else None,
                "unparsed": unparsed,
            }
        )
    return {"results": results}


def judge_report(run: Any) -> dict[str, Any]:
    from evaluation.models import Call
    from qc.reports import project_report

    calls = list(Call.objects.filter(run=run).values_list("endpoint__name", "template", "unit_key", "status", "text"))
    report = judge_metrics(run.parameters.get("pairs") or [], calls)
    human = project_report(project=run.project).get("preference", {}) if run.project_id else {}
    report["human"] = {"alpha_pairs": human.get("alpha_pairs"), "pairs": human.get("pairs")}
    return report
