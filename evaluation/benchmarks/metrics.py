"""Benchmark metrics from plain rows: accuracy with a bootstrap interval, breakdowns, template spread
and human baselines. No database here: the report builds `ScoredPrediction`s and `HumanRow`s from its
model rows and calls these functions.

Accuracy. A prediction counts as correct only if it was parsed and is correct (an unparsed reply is
wrong, whatever `correct` says). `n` is every prediction, parsed or not.

Interval: a seeded percentile bootstrap, 95% by default. The usual bootstrap resamples the n
predictions with replacement `resamples` times and takes the 2.5th and 97.5th percentiles of the
resampled accuracies. For right/wrong outcomes the number correct in one resample of n draws from a
sample with k correct is exactly Binomial(n, k/n), so we draw those counts directly: the same
distribution as resampling indices, in O(resamples) instead of O(n x resamples), which keeps the
leaderboard of a 10,000-prediction run with a dozen groups fast. Percentiles use NumPy's default
(linear interpolation). Every call starts a fresh `numpy.random.default_rng(seed)`, so a group's
interval depends only on its own outcomes and the seed, not on which groups were computed before.
An all-right or all-wrong group has the degenerate interval (1, 1) or (0, 0); an empty one has no
accuracy and no interval (None).

Human baselines (rows of gold key + answers in the project's annotator order):
- `answerers_majority_baseline`: the majority of the answerers against the gold key (the
  commonsense-QA paper's human figure); the majority and its tie-break are annotation.stats.majority's
  (most common answer; a tie goes to the answer given first).
- `validators_baseline`: the validators' majority label against gold, where a tie (no single most
  common label) goes to `no_majority` when given (IndoNLI, Mahendra et al. 2021, Appendix C: "for
  pairs with no majority label, we use the most frequent label ... (entailment)"), else as above.
- `individual_baseline`: every single answer against the gold key, pooled.
Rows without a gold key, or with no answer at all, are left out (there is nothing to compare); `n` of
the result says how many items counted.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import Any, NamedTuple

import numpy as np

from annotation.stats import majority

SEED = 20240601  # default bootstrap seed: the same rows give the same interval in every report
RESAMPLES = 2000
CONFIDENCE = 0.95


class Score(NamedTuple):
    accuracy: float | None
    ci_low: float | None
    ci_high: float | None
    n: int


class ScoredPrediction(NamedTuple):
    """One model prediction, scored. The group fields are the keys `breakdown` can group by."""

    correct: bool
    parsed: bool
    endpoint: str = ""
    template: str = ""
    category: str = ""
    language: str = ""
    source: str = ""
    split: str = ""
    label: str = ""
    item: Hashable | None = None


class TemplateSpread(NamedTuple):
    """Accuracy of one group (an endpoint) over its templates: unweighted mean, population standard
    deviation (the templates run are all the templates, not a sample of them), min, max, and each
    template's own score."""

    mean: float | None
    std: float | None
    min: float | None
    max: float | None
    by_template: dict[str, Score]


class HumanRow(NamedTuple):
    """One item: its gold key (None when it has none) and the humans' answers in annotator order."""

    gold: Hashable | None
    answers: Sequence[Hashable | None]


def accuracy_of(
    outcomes: Iterable[bool], *, seed: int = SEED, resamples: int = RESAMPLES, confidence: float = CONFIDENCE
) -> Score:
    """Accuracy of right/wrong outcomes with the seeded percentile bootstrap interval (module doc)."""
    values = [bool(v) for v in outcomes]
    n = len(values)
    if n == 0:
        return Score(None, None, None, 0)
    k = sum(values)
    rng = np.random.default_rng(seed)
    resampled = rng.binomial(n, k / n, size=resamples) / n
    tail = round((1.0 - confidence) / 2 * 100, 10)  # 2.5, not 2.5000000000000022 (float noise of 1 - 0.95)
    low, high = np.percentile(resampled, [tail, 100 - tail])
    return Score(k / n, float(low), float(high), n)


def _right(prediction: Any) -> bool:
    return bool(prediction.parsed) and bool(prediction.correct)


def accuracy(predictions: Iterable[Any], *, seed: int = SEED, resamples: int = RESAMPLES) -> Score:
    """Accuracy of predictions (anything with `correct` and `parsed`); unparsed counts as wrong."""
    return accuracy_of((_right(p) for p in predictions), seed=seed, resamples=resamples)


def summarise(outcomes: Iterable[bool], *, seed: int = SEED, resamples: int = RESAMPLES) -> dict[str, Any]:
    """`accuracy_of` as a dict (accuracy, ci_low, ci_high, n), the shape of the JSON report."""
    return accuracy_of(outcomes, seed=seed, resamples=resamples)._asdict()


def _key_function(key: str | Callable[[Any], Any]) -> Callable[[Any], Any]:
    if callable(key):
        return key
    return lambda prediction: getattr(prediction, key)


def _group(predictions: Iterable[Any], key: str | Callable[[Any], Any]) -> dict[str, list[Any]]:
    get = _key_function(key)
    groups: dict[str, list[Any]] = {}
    for prediction in predictions:
        value = get(prediction)
        groups.setdefault("" if value is None else str(value), []).append(prediction)
    return dict(sorted(groups.items()))


def breakdown(
    predictions: Iterable[Any], key: str | Callable[[Any], Any], *, seed: int = SEED, resamples: int = RESAMPLES
) -> dict[str, Score]:
    """Score per value of `key` (a field name such as "endpoint", "category", or a function), sorted by
    value; a missing value (None) is the group ""."""
    return {
        name: accuracy(members, seed=seed, resamples=resamples) for name, members in _group(predictions, key).items()
    }


def template_spread(
    predictions: Iterable[Any],
    *,
    by: str | Callable[[Any], Any] = "endpoint",
    template: str | Callable[[Any], Any] = "template",
    seed: int = SEED,
    resamples: int = RESAMPLES,
) -> dict[str, TemplateSpread]:
    """Per `by` group (an endpoint): each template's score and the mean and spread over templates."""
    result: dict[str, TemplateSpread] = {}
    for name, members in _group(predictions, by).items():
        scores = breakdown(members, template, seed=seed, resamples=resamples)
        values = np.array([s.accuracy for s in scores.values()], dtype=float)
        result[name] = TemplateSpread(
            mean=float(values.mean()),
            std=float(values.std()),
            min=float(values.min()),
            max=float(values.max()),
            by_template=scores,
        )
    return result


def _winner(answers: Sequence[Hashable | None], no_majority: Hashable | None) -> Hashable | None:
    if no_majority is None:
        return majority(answers)
    counts: dict[Hashable, int] = {}
    for answer in answers:
        if answer is not None:
            counts[answer] = counts.get(answer, 0) + 1
    if not counts:
        return None
    top = max(counts.values())
    tied = [answer for answer, count in counts.items() if count == top]
    return tied[0] if len(tied) == 1 else no_majority


def _majority_outcomes(rows: Iterable[HumanRow], no_majority: Hashable | None) -> list[bool]:
    outcomes = []
    for gold, answers in rows:
        if gold is None or all(a is None for a in answers):
            continue
        outcomes.append(_winner(answers, no_majority) == gold)
    return outcomes


def answerers_majority_baseline(rows: Iterable[HumanRow], *, seed: int = SEED, resamples: int = RESAMPLES) -> Score:
    """The answerers' majority answer (annotation.stats.majority) against the gold key, per item."""
    return accuracy_of(_majority_outcomes(rows, None), seed=seed, resamples=resamples)


def validators_baseline(
    rows: Iterable[HumanRow],
    *,
    no_majority: Hashable | None = None,
    seed: int = SEED,
    resamples: int = RESAMPLES,
) -> Score:
    """The validators' majority label against gold; a tie goes to `no_majority` when given."""
    return accuracy_of(_majority_outcomes(rows, no_majority), seed=seed, resamples=resamples)


def individual_baseline(rows: Iterable[HumanRow], *, seed: int = SEED, resamples: int = RESAMPLES) -> Score:
    """Every single human answer against its item's gold key, pooled (n = answers, not items)."""
    outcomes = [
        answer == gold for gold, answers in rows if gold is not None for answer in answers if answer is not None
    ]
    return accuracy_of(outcomes, seed=seed, resamples=resamples)
