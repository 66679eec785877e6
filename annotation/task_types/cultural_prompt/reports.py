"""The cultural_prompt report (KALAHI section 3.2, the human baseline and agreement) from the core's rows.

Pure: `report_sections(rows)` gets ReportRows and returns JSON. Conventions (the paper is silent):
- a validator's accuracy is the share of their picks that are the best response; the human baseline is
  the mean of the validators' accuracies (the paper: "on average, our validators scored 89.1%");
- agreement is computed on the option picked (best, irrelevant_1, ...: nominal): Cohen's kappa for every
  pair of validators over the prompts both picked (and their mean), Fleiss' kappa over the prompts with
  the project's number of validators, Krippendorff's alpha (nominal) over every prompt with two picks;
- best_by_2_of_3: of the prompts with the project's number of validators, the share whose best response
  was picked by at least two thirds of them (2 of 3);
- a prompt is split when its validators did not all pick the same response.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from statistics import mean
from typing import Any

import numpy as np

from annotation.agreement import alpha_nominal, cohen_kappa_pairs
from annotation.task_types.base import ReportRows
from annotation.task_types.cultural_prompt.judging import BEST
from annotation.task_types.cultural_prompt.payload import ids as prompt_ids


def fleiss_kappa(counts: np.ndarray) -> float | None:
    """Fleiss' kappa from a units x categories count matrix, the same number of raters per unit."""
    counts = np.asarray(counts, dtype=float)
    if counts.shape[0] == 0:
        return None
    raters = counts.sum(axis=1)
    if raters.min() != raters.max() or raters[0] < 2:
        return None
    n = raters[0]
    p_j = counts.sum(axis=0) / counts.sum()
    p_i = ((counts * counts).sum(axis=1) - n) / (n * (n - 1))
    p_bar, p_e = p_i.mean(), float((p_j * p_j).sum())
    if p_e == 1:
        return None
    return float((p_bar - p_e) / (1 - p_e))


def _share(numerator: int, denominator: int) -> float | None:
    return numerator / denominator if denominator else None


def _validation(rows: ReportRows, items: dict[int, Any]) -> dict[str, Any] | None:
    needed = int(rows.settings.get("validators_per_item") or 3)
    picks: dict[int, list[tuple[str, str]]] = defaultdict(list)  # item -> (code, choice)
    for judgment in rows.judgments:
        choice = (judgment.value or {}).get("choice")
        if choice and judgment.item_id in items:
            picks[judgment.item_id].append((judgment.user_code or str(judgment.user_id), choice))
    if not picks:
        return None
    order = [a.code or str(a.user_id) for a in rows.annotators]
    coders = [c for c in order if any(c == code for item in picks.values() for code, _ in item)]
    coders += sorted({code for item in picks.values() for code, _ in item} - set(coders))
    per_validator = []
    for code in coders:
        mine = [choice for item in picks.values() for c, choice in item if c == code]
        correct = sum(choice == BEST for choice in mine)
        per_validator.append(
            {"validator": code, "picks": len(mine), "correct": correct, "accuracy": correct / len(mine)}
        )
    pairs = cohen_kappa_pairs(picks.values(), coders=coders, min_shared=2)
    kappas = [p.kappa for p in pairs if p.kappa is not None]
    complete = {item_id: item for item_id, item in picks.items() if len(item) == needed}
    domain = sorted({choice for item in picks.values() for _, choice in item})
    counts = np.array([[sum(ch == v for _, ch in item) for v in domain] for item in complete.values()]).reshape(
        len(complete), len(domain)
    )

    def best_2_of_3(ids: list[int]) -> float | None:
        done = [i for i in ids if i in complete]
        return _share(sum(3 * sum(ch == BEST for _, ch in complete[i]) >= 2 * needed for i in done), len(done))

    def group(key: str) -> dict[str, Any]:
        by: dict[str, list[int]] = defaultdict(list)
        for item_id in picks:
            by[items[item_id][key]].append(item_id)
        out = {}
        for name in sorted(by):
            ids = by[name]
            all_picks = [ch for i in ids for _, ch in picks[i]]
            out[name] = {
                "prompts": len(ids),
                "picks": len(all_picks),
                "accuracy": _share(sum(ch == BEST for ch in all_picks), len(all_picks)),
                "best_by_2_of_3": best_2_of_3(ids),
            }
        return out

    split = [
        {
            "item_id": item_id,
            "prompt_variation_id": items[item_id]["variation_id"],
            "category": items[item_id]["category"],
            "topic": items[item_id]["topic"],
            "prompt": items[item_id]["prompt"],
            "choices": dict(item),
            "best_votes": sum(ch == BEST for _, ch in item),
        }
        for item_id, item in sorted(picks.items())
        if len({ch for _, ch in item}) > 1
    ]
    return {
        "validators_per_prompt": needed,
        "validated": len(picks),
        "complete": len(complete),
        "validators": per_validator,
        "human_baseline": mean(v["accuracy"] for v in per_validator),
        "cohen_kappa": mean(kappas) if kappas else None,
        "cohen_kappa_pairs": [{"a": p.a, "b": p.b, "prompts": p.items, "kappa": p.kappa} for p in pairs],
        "fleiss_kappa": fleiss_kappa(counts) if len(complete) else None,
        "alpha": alpha_nominal([[ch for _, ch in item] for item in picks.values()]),
        "best_by_2_of_3": best_2_of_3(list(picks)),
        "split": split,
        "by_category": group("category"),
        "by_topic": group("topic"),
    }


def report_sections(rows: ReportRows) -> dict[str, Any]:
    items: dict[int, dict[str, Any]] = {}
    for record in rows.items:
        if record.status in ("draft", "rejected"):
            continue
        payload = record.payload or {}
        variation, prompt_id = prompt_ids(payload, external_id=record.external_id, item_id=record.item_id)
        items[record.item_id] = {
            "variation_id": variation,
            "prompt_id": prompt_id,
            "category": payload.get("category") or record.category,
            "topic": payload.get("topic") or record.unit_name,
            "prompt": payload.get("prompt", ""),
            "relevant": len(payload.get("relevant") or []),
            "irrelevant": len(payload.get("irrelevant") or []),
            "status": record.status,
        }
    by_category = Counter(i["category"] for i in items.values())
    by_topic = Counter(i["topic"] for i in items.values())
    # Each base prompt id with the variation ids of its variants (those naming it as their base).
    variants: dict[str, list[str]] = defaultdict(list)
    for i in items.values():
        if i["variation_id"] != i["prompt_id"] and i["variation_id"] != f"{i['prompt_id']}00":
            variants[i["prompt_id"]].append(i["variation_id"])
    return {
        "prompts": len(items),
        "base_prompts": len({i["prompt_id"] for i in items.values()}),
        "variants": {base: sorted(ids) for base, ids in sorted(variants.items())},
        "by_category": dict(sorted(by_category.items())),
        "by_topic": dict(sorted(by_topic.items())),
        "by_status": dict(sorted(Counter(i["status"] for i in items.values()).items())),
        "responses": {
            "relevant": sum(i["relevant"] for i in items.values()),
            "irrelevant": sum(i["irrelevant"] for i in items.values()),
            "relevant_per_prompt": {
                str(k): v for k, v in sorted(Counter(i["relevant"] for i in items.values()).items())
            },
            "irrelevant_per_prompt": {
                str(k): v for k, v in sorted(Counter(i["irrelevant"] for i in items.values()).items())
            },
        },
        "validation": _validation(rows, items),
    }
