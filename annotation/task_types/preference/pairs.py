"""Preference pairs from ratings: the documented, configurable rule.

For each prompt rated by every group, each response's *combined score* is the sum over the groups of the
group's mean (relevance + fluency) (with one rater per group: the two raters' relevance + fluency added,
4..20). For each pair of responses, the one whose combined score is higher by at least the project's
`min_margin` is chosen and the other rejected. Otherwise (a tie) the pair gives nothing, unless the
project's `tie_break` is "best_picks": then the response more raters picked as the best wins, and a tie
there too gives nothing. Every pair keeps the scores it came from.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import Any, NamedTuple

TIE_BREAKS = ("none", "best_picks")


@dataclass(frozen=True)
class Prompt:
    item_id: int
    external_id: str
    category: str
    payload: dict[str, Any]
    ratings: tuple[dict[str, Any], ...]  # judgment values (ratings by response id, best, order, group)


class ResponseScore(NamedTuple):
    response_id: str
    model: str
    relevance: float  # mean over every rating of the response
    fluency: float
    combined: float  # sum over groups of the group's mean relevance + fluency
    best_picks: int
    by_group: dict[str, dict[str, float]]
    scores: dict[str, Any]  # what a pair keeps (rounded), built once per response and shared by its pairs


def response_scores(prompt: Prompt) -> dict[str, ResponseScore]:
    """Per response: means over all ratings and per group, the combined score and the best picks.

    Plain dicts of [relevance sum, fluency sum, count] per (response, group): this runs for every prompt of
    a report (5,000 prompts x 10 ratings in the bench), so it avoids nested defaultdicts and lists."""
    models = {r["id"]: r.get("model", "") for r in prompt.payload.get("responses") or []}
    sums: dict[str, dict[str, list[int]]] = {}
    picks: dict[str, int] = {}
    for value in prompt.ratings:
        group = value.get("group") or ""
        for rid, scores in (value.get("ratings") or {}).items():
            if rid not in models:
                continue
            per_group = sums.get(rid)
            if per_group is None:
                per_group = sums[rid] = {}
            acc = per_group.get(group)
            if acc is None:
                per_group[group] = [scores["relevance"], scores["fluency"], 1]
            else:
                acc[0] += scores["relevance"]
                acc[1] += scores["fluency"]
                acc[2] += 1
        best = value.get("best")
        if best in models:
            picks[best] = picks.get(best, 0) + 1
    result = {}
    for rid, per_group in sums.items():
        relevance = fluency = count = 0
        combined = 0.0
        by_group, rounded = {}, {}
        for group in sorted(per_group):
            r, f, n = per_group[group]
            relevance += r
            fluency += f
            count += n
            means = by_group[group] = {"relevance": r / n, "fluency": f / n}
            # one rater per group (the paper's design): the means are whole numbers, nothing to round
            rounded[group] = means if n == 1 else {"relevance": round(r / n, 4), "fluency": round(f / n, 4)}
            combined += (r + f) / n
        best_picks = picks.get(rid, 0)
        scores = {
            "relevance": round(relevance / count, 4),
            "fluency": round(fluency / count, 4),
            "combined": round(combined, 4),
            "best_picks": best_picks,
            "by_group": rounded,
        }
        result[rid] = ResponseScore(
            rid, models[rid], relevance / count, fluency / count, combined, best_picks, by_group, scores
        )
    return result


def _id_order(rid: str) -> tuple[int, str]:
    return (len(rid), rid)


class Decision(NamedTuple):
    first: str  # the pair in response id order
    second: str
    winner: ResponseScore
    loser: ResponseScore
    rule: str  # "score" | "best_picks"


def decide(
    scores: dict[str, ResponseScore], *, min_margin: float = 1, tie_break: str = "none"
) -> tuple[list[Decision], int]:
    """The rule over one prompt's response scores: (decisions, ties), pairs compared in id order (r1 with r2,
    ...). Plain tuples, so an export can write lines from them without building each pair's dict."""
    decisions, ties = [], 0
    margin = min_margin - 1e-9
    for a, b in combinations(sorted(scores, key=_id_order), 2):
        sa, sb = scores[a], scores[b]
        difference = sa.combined - sb.combined
        if difference and abs(difference) >= margin:
            decisions.append(Decision(a, b, sa, sb, "score") if difference > 0 else Decision(a, b, sb, sa, "score"))
        elif tie_break == "best_picks" and sa.best_picks != sb.best_picks:
            winner, loser = (sa, sb) if sa.best_picks > sb.best_picks else (sb, sa)
            decisions.append(Decision(a, b, winner, loser, "best_picks"))
        else:
            ties += 1
    return decisions, ties


def derive(prompt: Prompt, *, min_margin: float = 1, tie_break: str = "none") -> tuple[list[dict[str, Any]], int]:
    """(pairs, ties) of one prompt. Responses are compared in id order (r1 with r2, ...)."""
    scores = response_scores(prompt)
    texts = {r["id"]: r["text"] for r in prompt.payload.get("responses") or []}
    decisions, ties = decide(scores, min_margin=min_margin, tie_break=tie_break)
    pairs = []
    item_id, category = prompt.item_id, prompt.category
    prompt_id = prompt.external_id or str(item_id)
    text, input_text = prompt.payload.get("prompt", ""), prompt.payload.get("input", "")
    for a, b, winner, loser, rule in decisions:
        pairs.append(
            {
                "item_id": item_id,
                "prompt_id": prompt_id,
                "category": category,
                "prompt": text,
                "input": input_text,
                "first": a,
                "second": b,
                "chosen": winner.response_id,
                "rejected": loser.response_id,
                "chosen_text": texts[winner.response_id],
                "rejected_text": texts[loser.response_id],
                "chosen_model": winner.model,
                "rejected_model": loser.model,
                "chosen_scores": winner.scores,
                "rejected_scores": loser.scores,
                "rule": rule,
            }
        )
    return pairs, ties


def imported(prompt: Prompt) -> list[dict[str, Any]]:
    """The human pairs a file gave for a prompt (released IndoPref data), in the same shape."""
    texts = {r["id"]: r for r in prompt.payload.get("responses") or []}
    pairs = []
    for pair in prompt.payload.get("human_pairs") or []:
        chosen, rejected = texts.get(pair["chosen"]), texts.get(pair["rejected"])
        if chosen is None or rejected is None:
            continue
        first, second = sorted((pair["chosen"], pair["rejected"]), key=lambda rid: (len(rid), rid))
        pairs.append(
            {
                "item_id": prompt.item_id,
                "prompt_id": pair.get("id") or prompt.external_id,
                "category": prompt.category,
                "prompt": prompt.payload.get("prompt", ""),
                "input": prompt.payload.get("input", ""),
                "first": pair.get("first") or first,
                "second": pair.get("second") or second,
                "chosen": chosen["id"],
                "rejected": rejected["id"],
                "chosen_text": chosen["text"],
                "rejected_text": rejected["text"],
                "chosen_model": chosen.get("model", ""),
                "rejected_model": rejected.get("model", ""),
                "chosen_scores": {},
                "rejected_scores": {},
                "rule": "imported",
            }
        )
    return pairs


def rated_by_all(prompt: Prompt, groups: tuple[str, ...]) -> bool:
    rated_by = {v.get("group") or "" for v in prompt.ratings}
    return bool(prompt.ratings) and all(g in rated_by for g in groups)


def prompt_pairs(prompt: Prompt, *, groups: tuple[str, ...], min_margin: float, tie_break: str) -> tuple[list, int]:
    """Pairs from the ratings once every group rated the prompt; the file's pairs before that."""
    if rated_by_all(prompt, groups):
        return derive(prompt, min_margin=min_margin, tie_break=tie_break)
    return imported(prompt), 0
