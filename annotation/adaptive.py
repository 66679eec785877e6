"""Adaptive judging: more judges only where they are needed.

A project chooses per judging rule between "fixed" overlap (every judged item gets all of the rule's
judges, the published protocols' way and the default) and "adaptive": round 1 plans the minimum number
of judges; after each judgment the item's posterior over its labels is updated, and the item stops as
gold once its top label reaches the confidence asked for (with at least the minimum of judges), or
else gets one more judge, up to the fixed overlap. It is the same mechanism as IndoNLI's rounds: a gold
decision that asks for `next_round`, which the judging engine plans once, under the item's lock, in the
transaction of the judgment that called for it (annotation.services.judgments). Who may judge (never the
author, the rule's scope) holds for every added judge because the same planner picks them.

The posterior is the one-coin model (each judge gives the true label with probability `accuracy`,
otherwise one of the other labels uniformly), which is Dawid-Skene with a symmetric confusion matrix:
cheap enough to update one item on the request path without refitting the project. A judge's accuracy
comes from the project's last aggregation fit when there is one, else DEFAULT_ACCURACY.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from django.utils.translation import gettext_lazy

from annotation.task_types.base import ChoiceSetting, GoldCase, GoldOutcome, IntSetting, JudgingRule

FIXED = "fixed"
ADAPTIVE = "adaptive"
# A judge the last fit does not know (or any judge before the first fit): right four times in five.
DEFAULT_ACCURACY = 0.8
# Never certainty: a judge with a fitted accuracy of 1.0 would make one answer final.
_ACCURACY_BOUNDS = (0.05, 0.995)

# The settings a task type with a categorical judging rule adds to its own (settings_spec).
SETTINGS = {
    "judging_mode": ChoiceSetting(
        default=FIXED,
        choices=(FIXED, ADAPTIVE),
        label=gettext_lazy("Judging"),
        choice_labels=(
            gettext_lazy("Fixed overlap: every item gets all its judges"),
            gettext_lazy("Adaptive: stop an item once its label is sure"),
        ),
        help=gettext_lazy(
            "Adaptive judging starts with the minimum of judges and adds one at a time, up to the fixed "
            "overlap, until the item's most probable label reaches the confidence below."
        ),
    ),
    # 99 by default: replaying a released dataset's five answers per item (bench/adaptive_replay.py), 99% kept 99.7% of
    # the five-answer decisions with 57% fewer judgments, where 95% fell to 99.5% (a few items where two
    # judges agree on a wrong answer stop too early unless the fit already knows them to be reliable).
    "adaptive_confidence": IntSetting(
        default=99,
        min_value=50,
        max_value=99,
        label=gettext_lazy("Adaptive: confidence to stop (%)"),
    ),
    "adaptive_min_judges": IntSetting(
        default=2,
        min_value=1,
        max_value=100,
        label=gettext_lazy("Adaptive: minimum judges per item"),
    ),
}


def is_adaptive(settings: Mapping[str, Any]) -> bool:
    return settings.get("judging_mode") == ADAPTIVE


def adaptive_rule(rule: JudgingRule, settings: Mapping[str, Any]) -> JudgingRule:
    """The rule a project's settings ask for: unchanged for fixed overlap; for adaptive judging, the
    minimum of judges in round 1, then one judge per round, up to the rule's whole overlap."""
    if not is_adaptive(settings):
        return rule
    total = sum(rule.per_round)
    first = max(1, min(int(settings["adaptive_min_judges"]), total))
    return replace(rule, per_round=(first,) + (1,) * (total - first))


def posterior(
    labels: Sequence[tuple[int, Any]], domain: Sequence[Any], accuracy: Mapping[int, float]
) -> dict[Any, float]:
    """P(true label | the judges' labels) under the one-coin model with a uniform prior.

    labels: (judge's user id, label) pairs; a label outside `domain` (none given) is left out.
    accuracy: user id -> probability that judge gives the true label (DEFAULT_ACCURACY when absent).
    """
    k = len(domain)
    if k < 2:
        return dict.fromkeys(domain, 1.0)
    low, high = _ACCURACY_BOUNDS
    log_p = dict.fromkeys(domain, 0.0)
    for user_id, given in labels:
        if given not in log_p:
            continue
        acc = min(high, max(low, accuracy.get(user_id, DEFAULT_ACCURACY)))
        right, wrong = math.log(acc), math.log((1.0 - acc) / (k - 1))
        for label in log_p:
            log_p[label] += right if label == given else wrong
    top = max(log_p.values())
    weights = {label: math.exp(value - top) for label, value in log_p.items()}
    total = sum(weights.values())
    return {label: weight / total for label, weight in weights.items()}


def adaptive_outcome(
    case: GoldCase,
    published: GoldOutcome,
    *,
    labels: Sequence[tuple[int, Any]],
    domain: Sequence[Any],
    accuracy: Mapping[int, float],
    rule: JudgingRule,
) -> GoldOutcome:
    """The decision of an adaptive project, from the published rule's decision of the same case.

    The published rule still decides exclusions and a full overlap. An item it leaves pending stops as
    gold when its top label is sure enough, waits while its current round's judges are still out, or
    else asks for the next round (one more judge), until the overlap is reached.
    """
    if published.outcome != "pending":
        return published
    given = [(user, label) for user, label in labels if label in domain]
    probabilities = posterior(given, domain, accuracy)
    best = max(domain, key=lambda label: probabilities[label]) if given else None
    confidence = probabilities[best] if best is not None else 0.0
    details = {
        **published.details,
        "adaptive": {
            "label": best,
            "confidence": round(confidence, 4),
            "judges": len(given),
            "posterior": {str(label): round(p, 4) for label, p in probabilities.items()},
        },
    }
    settings = case.settings
    if len(given) >= int(settings["adaptive_min_judges"]) and confidence * 100 >= int(settings["adaptive_confidence"]):
        return GoldOutcome(outcome="gold", reason="", details=details)
    planned = sum(rule.per_round[: max(case.judging_round, 1)])
    next_round = case.judging_round + 1
    if case.judging_round >= 1 and len(case.judgments) >= planned and next_round <= len(rule.per_round):
        return GoldOutcome(outcome="pending", reason=published.reason, details=details, next_round=next_round)
    return GoldOutcome(outcome="pending", reason=published.reason, details=details)
