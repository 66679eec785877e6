"""The preference report (the `preference` section of `report SLUG --json` and the report page), pure.

prompts, responses, ratings (response ratings: one per response and rater), rated_prompts, pairs, ties,
by_domain (pairs per category) and, once rated: alpha_relevance / alpha_fluency ({level: {"groups",
"raters"}} for ordinal and interval), alpha_pairs (each rater's own preference of every pair, -1/0/+1),
per_model (the paper's Table 12: mean and sample standard deviation of every individual rating),
per_category, per_rater, distributions (score counts per model and criterion).
"""

from __future__ import annotations

import statistics
from collections import Counter, defaultdict
from itertools import combinations
from typing import Any

from annotation.task_types.preference import agreement
from annotation.task_types.preference.judging import GROUPS
from annotation.task_types.preference.pairs import Prompt, prompt_pairs
from annotation.task_types.preference.rubrics import CRITERIA


def prompts_from_rows(rows: Any) -> list[Prompt]:
    by_item: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for judgment in rows.judgments:
        if isinstance((judgment.value or {}).get("ratings"), dict):
            by_item[judgment.item_id].append({**judgment.value, "rater": judgment.user_code or str(judgment.user_id)})
    return [
        Prompt(item.item_id, item.external_id, item.category, item.payload, tuple(by_item.get(item.item_id, ())))
        for item in rows.items
    ]


def all_pairs(prompts: list[Prompt], settings: dict[str, Any]) -> tuple[list[dict[str, Any]], int]:
    pairs, ties = [], 0
    for prompt in prompts:
        found, tied = prompt_pairs(
            prompt, groups=GROUPS, min_margin=settings.get("min_margin", 1), tie_break=settings.get("tie_break", "none")
        )
        pairs.extend(found)
        ties += tied
    return pairs, ties


def _mean_sd(values: list[float]) -> tuple[float | None, float | None]:
    if not values:
        return None, None
    mean = statistics.fmean(values)
    return round(mean, 4), (round(statistics.stdev(values), 4) if len(values) > 1 else None)


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


def agreement_figures(prompts: list[Prompt]) -> dict[str, Any]:
    """alpha per criterion (groups as coders: each group's mean; raters as coders) and over pairs."""
    figures: dict[str, Any] = {}
    for criterion in CRITERIA:
        raters, groups = [], []
        for prompt in prompts:
            group_scores: dict[tuple[str, str], list[int]] = defaultdict(list)
            for value in prompt.ratings:
                for rid, scores in value["ratings"].items():
                    raters.append(((prompt.item_id, rid), value["rater"], scores[criterion]))
                    group_scores[(rid, value.get("group") or "")].append(scores[criterion])
            groups.extend(((prompt.item_id, rid), group, sum(v) / len(v)) for (rid, group), v in group_scores.items())
        figures[f"alpha_{criterion}"] = {
            level: {
                "groups": _round(agreement.alpha(groups, level=level)),
                "raters": _round(agreement.alpha(raters, level=level)),
            }
            for level in ("ordinal", "interval")
        }
    pair_triples = []
    for prompt in prompts:
        for value in prompt.ratings:
            ratings = value["ratings"]
            combined = {rid: s["relevance"] + s["fluency"] for rid, s in ratings.items()}
            for a, b in combinations(sorted(combined, key=lambda r: (len(r), r)), 2):
                sign = (combined[a] > combined[b]) - (combined[a] < combined[b])
                pair_triples.append(((prompt.item_id, a, b), value["rater"], sign))
    figures["alpha_pairs"] = {
        level: _round(agreement.alpha(pair_triples, level=level)) for level in ("nominal", "ordinal")
    }
    return figures


def report_sections(rows: Any) -> dict[str, Any]:
    return preference_section(rows)


def preference_section(rows: Any) -> dict[str, Any]:
    settings = rows.settings
    prompts = prompts_from_rows(rows)
    pairs, ties = all_pairs(prompts, settings)
    n_ratings = sum(len(v["ratings"]) for p in prompts for v in p.ratings)
    section: dict[str, Any] = {
        "rule": {
            "combined": "sum over groups of the group's mean relevance + fluency",
            "min_margin": settings.get("min_margin", 1),
            "tie_break": settings.get("tie_break", "none"),
        },
        "prompts": len(prompts),
        "responses": sum(len(p.payload.get("responses") or []) for p in prompts),
        "ratings": n_ratings,
        "rated_prompts": sum(1 for p in prompts if p.ratings),
        "pairs": len(pairs),
        "ties": ties,
        "imported_pairs": sum(1 for p in pairs if p["rule"] == "imported"),
        "by_domain": dict(sorted(Counter(p["category"] for p in pairs).items())),
        "prompts_by_domain": dict(sorted(Counter(p.category for p in prompts).items())),
    }
    if not n_ratings:
        return section
    section.update(agreement_figures(prompts))
    models: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(list))
    best: Counter = Counter()
    categories: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(list))
    raters: dict[str, dict[str, Any]] = {}
    for prompt in prompts:
        model_of = {r["id"]: r.get("model", "") for r in prompt.payload.get("responses") or []}
        for value in prompt.ratings:
            rater = raters.setdefault(
                value["rater"], {"group": value.get("group") or "", "prompts": 0, "relevance": [], "fluency": []}
            )
            rater["prompts"] += 1
            if value.get("best") in model_of:
                best[model_of[value["best"]]] += 1
            for rid, scores in value["ratings"].items():
                for criterion in CRITERIA:
                    models[model_of.get(rid, "")][criterion].append(scores[criterion])
                    categories[prompt.category][criterion].append(scores[criterion])
                    rater[criterion].append(scores[criterion])
    per_model = []
    for model in sorted(models):
        row: dict[str, Any] = {"model": model, "ratings": len(models[model]["relevance"]), "best_picks": best[model]}
        for criterion in CRITERIA:
            row[f"{criterion}_mean"], row[f"{criterion}_sd"] = _mean_sd(models[model][criterion])
        per_model.append(row)
    section["per_model"] = per_model
    section["distributions"] = {
        model: {c: [models[model][c].count(s) for s in range(1, 6)] for c in CRITERIA} for model in sorted(models)
    }
    pair_counts = Counter(p["category"] for p in pairs)
    section["per_category"] = [
        {
            "category": category,
            "pairs": pair_counts.get(category, 0),
            **{f"{c}_mean": _mean_sd(categories[category][c])[0] for c in CRITERIA},
        }
        for category in sorted(categories)
    ]
    section["per_rater"] = [
        {
            "rater": code,
            "group": info["group"],
            "prompts": info["prompts"],
            **{f"{c}_mean": _mean_sd(info[c])[0] for c in CRITERIA},
        }
        for code, info in sorted(raters.items())
    ]
    return section
