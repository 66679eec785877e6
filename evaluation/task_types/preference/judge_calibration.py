"""The calibration of a preference judge run: its verdicts as `JudgeDecision`s (evaluation.judge_calibration)
and the read of a run's calls.

A pair's two sides are its responses in id order ("first", "second"); the people's decision is the side of
the pair's chosen response (the project's published pair rule), the judge's the side its verdict names.
Each order of a pair is one decision; the unit is the pair, so a verdict that follows the position flips
between its two orders. The judge's probability is read from the verdict digit's log-probabilities when
the run asked for them (the run option `confidence`).
"""

from __future__ import annotations

from typing import Any

from evaluation.judge_calibration import JudgeDecision, JudgeFigures, judge_calibration
from evaluation.models import Call, Run
from evaluation.task_types.preference.judge_prompts import parse_verdict, verdict_probability

CallRow = tuple[str, str, str, str, str, Any]  # endpoint, template, unit_key, status, text, logprobs


def _side(pair: dict[str, Any], response_id: str | None) -> str | None:
    if response_id == pair["first"]:
        return "first"
    if response_id == pair["second"]:
        return "second"
    return None


def calibration_decisions(pairs: list[dict[str, Any]], calls: list[CallRow]) -> list[JudgeDecision]:
    by_key = {p["key"]: p for p in pairs}
    decisions = []
    for endpoint, template, unit_key, status, text, logprobs in calls:
        pair_key, _, order = unit_key.rpartition("|")
        pair = by_key.get(pair_key)
        if pair is None or order not in ("ab", "ba"):
            continue
        shown = (pair["first"], pair["second"]) if order == "ab" else (pair["second"], pair["first"])
        position = parse_verdict(text) if status == "done" else None
        confidence = None
        if position is not None:
            first = verdict_probability(text, logprobs)
            if first is not None:
                confidence = first if position == 1 else 1.0 - first
        decisions.append(
            JudgeDecision(
                judge=f"{endpoint} · {template.removeprefix('judge_')}",
                category=pair.get("category") or "",
                unit=pair_key,
                order=order,
                label=None if position is None else _side(pair, shown[position - 1]),
                human=_side(pair, pair.get("chosen")),
                picked_first=None if position is None else position == 1,
                confidence=confidence,
            )
        )
    return decisions


def run_calibration(run: Run) -> list[JudgeFigures]:
    calls = list(
        Call.objects.filter(run=run)
        .order_by("pk")
        .values_list("endpoint__name", "template", "unit_key", "status", "text", "logprobs")
    )
    return judge_calibration(calibration_decisions(run.parameters.get("pairs") or [], calls))
