"""How far a model judge can stand in for people: agreement with the human decision, position bias and
calibration, per judge and per category. Pure: typed decisions in, typed figures out; any task type
whose judgment a model gives builds `JudgeDecision`s from its run's calls, in its own folder
(evaluation/task_types/<name>/judge_calibration.py).

- Agreement is taken over the decisions both sides gave (a readable verdict and a human decision):
  accuracy, Cohen's kappa (scikit-learn) and Krippendorff's alpha, nominal (the `krippendorff`
  package), the judge and the people as the two coders.
- Position bias: of the units the judge saw in both orders with a readable verdict each time, the
  share whose decision flips when the order is swapped. A judge that always picks the first
  position flips on every unit (1.0); one that reads the content never does (0.0).
- Calibration, when the judge gives its probability for the label it chose: expected calibration
  error over 10 equal-width bins of that probability (Guo et al. 2017): sum over bins of
  (decisions in the bin / all decisions) x |share correct - mean probability|, and the bins for a
  reliability diagram.
"""

from __future__ import annotations

import math
import warnings
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field

import krippendorff
import numpy as np
from sklearn.metrics import cohen_kappa_score

BINS = 10
ALL = ""  # the category of a judge's figures over every category


@dataclass(frozen=True)
class JudgeDecision:
    judge: str  # who judged: a model, or a model with its instruction language
    category: str
    unit: str  # what was judged; the swapped presentations of one unit share it
    order: str  # which presentation of the unit this was ("ab", "ba")
    label: str | None  # the judge's decision in the unit's own terms; None: unreadable or failed
    human: str | None  # the people's decision; None: they have none
    picked_first: bool | None = None  # the judge chose what was shown first; None: no readable verdict
    confidence: float | None = None  # the judge's probability for `label`, 0..1; None: not given


@dataclass(frozen=True)
class ReliabilityBin:
    low: float
    high: float
    count: int
    confidence: float | None  # mean probability of the bin's decisions; None when empty
    accuracy: float | None  # share of them that match the people


@dataclass(frozen=True)
class JudgeFigures:
    judge: str
    category: str  # ALL for the judge's figures over every category
    decisions: int  # every decision of the judge (readable or not)
    compared: int  # decisions with a readable verdict and a human decision
    accuracy: float | None
    kappa: float | None
    alpha: float | None
    position_bias: float | None  # share of swapped units whose decision flips
    swapped_units: int
    first_position: float | None  # share of readable verdicts naming what was shown first
    ece: float | None  # None when the judge gave no probabilities
    calibrated: int  # decisions with a probability (and both labels)
    bins: list[ReliabilityBin] = field(default_factory=list)


def _round(value: float | None) -> float | None:
    return None if value is None or math.isnan(value) else round(float(value), 4)


def agreement(pairs: Sequence[tuple[str, str]]) -> tuple[float | None, float | None, float | None]:
    """(accuracy, Cohen's kappa, Krippendorff's nominal alpha) of (human, judge) label pairs. Kappa and
    alpha are None when they are undefined (no pairs, or a single label used by both sides)."""
    if not pairs:
        return None, None, None
    human = [h for h, _ in pairs]
    judge = [j for _, j in pairs]
    accuracy = sum(h == j for h, j in pairs) / len(pairs)
    labels = sorted(set(human) | set(judge))
    if len(labels) < 2:
        return _round(accuracy), None, None
    with warnings.catch_warnings():  # 0/0 when one side uses a single label: reported as undefined
        warnings.simplefilter("ignore", RuntimeWarning)
        kappa = cohen_kappa_score(human, judge, labels=labels)
    codes = {label: n for n, label in enumerate(labels)}
    data = np.array([[codes[h] for h in human], [codes[j] for j in judge]], dtype=float)
    alpha = krippendorff.alpha(reliability_data=data, level_of_measurement="nominal")
    return _round(accuracy), _round(kappa), _round(alpha)


def position_bias(decisions: Sequence[JudgeDecision]) -> tuple[float | None, int]:
    """(share of units whose readable decisions differ between their orders, units seen in 2+ orders)."""
    by_unit: dict[str, dict[str, str]] = defaultdict(dict)
    for decision in decisions:
        if decision.label is not None:
            by_unit[decision.unit][decision.order] = decision.label
    swapped = [set(orders.values()) for orders in by_unit.values() if len(orders) >= 2]
    if not swapped:
        return None, 0
    return _round(sum(len(labels) > 1 for labels in swapped) / len(swapped)), len(swapped)


def expected_calibration_error(
    scored: Sequence[tuple[float, bool]], *, bins: int = BINS
) -> tuple[float | None, list[ReliabilityBin]]:
    """(ECE, reliability bins) of (probability, correct) pairs; (None, empty bins) without any."""
    members: list[list[tuple[float, bool]]] = [[] for _ in range(bins)]
    for confidence, correct in scored:
        members[min(int(confidence * bins), bins - 1)].append((confidence, correct))  # 1.0: the last bin
    table = []
    error = 0.0
    for n, inside in enumerate(members):
        if inside:
            mean = math.fsum(c for c, _ in inside) / len(inside)
            share = sum(ok for _, ok in inside) / len(inside)
            error += len(inside) * abs(share - mean)
            table.append(ReliabilityBin(n / bins, (n + 1) / bins, len(inside), _round(mean), _round(share)))
        else:
            table.append(ReliabilityBin(n / bins, (n + 1) / bins, 0, None, None))
    if not scored:
        return None, table
    return _round(error / len(scored)), table


def figures(judge: str, category: str, decisions: Sequence[JudgeDecision]) -> JudgeFigures:
    compared = [(d.human, d.label) for d in decisions if d.label is not None and d.human is not None]
    accuracy, kappa, alpha = agreement(compared)  # type: ignore[arg-type]
    bias, swapped = position_bias(decisions)
    picks = [d.picked_first for d in decisions if d.picked_first is not None]
    scored = [
        (min(max(d.confidence, 0.0), 1.0), d.label == d.human)
        for d in decisions
        if d.confidence is not None and d.label is not None and d.human is not None
    ]
    ece, bins = expected_calibration_error(scored)
    return JudgeFigures(
        judge=judge,
        category=category,
        decisions=len(decisions),
        compared=len(compared),
        accuracy=accuracy,
        kappa=kappa,
        alpha=alpha,
        position_bias=bias,
        swapped_units=swapped,
        first_position=_round(sum(picks) / len(picks)) if picks else None,
        ece=ece,
        calibrated=len(scored),
        bins=bins,
    )


def judge_calibration(decisions: Sequence[JudgeDecision]) -> list[JudgeFigures]:
    """Per judge (in name order): its figures over every category (category ALL) first, then per
    category in name order."""
    by_judge: dict[str, list[JudgeDecision]] = defaultdict(list)
    for decision in decisions:
        by_judge[decision.judge].append(decision)
    result = []
    for judge, own in sorted(by_judge.items()):
        result.append(figures(judge, ALL, own))
        by_category: dict[str, list[JudgeDecision]] = defaultdict(list)
        for decision in own:
            by_category[decision.category].append(decision)
        result.extend(figures(judge, category, rows) for category, rows in sorted(by_category.items()))
    return result
