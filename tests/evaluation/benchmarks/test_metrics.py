"""Benchmark metrics: accuracies and breakdowns computed by hand, the bootstrap interval's method and
determinism, and the human baseline of the published commonsense-QA test file. No database."""

import math

import numpy as np

from evaluation.benchmarks.metrics import (
    SEED,
    HumanRow,
    Score,
    ScoredPrediction,
    TemplateSpread,
    accuracy,
    accuracy_of,
    answerers_majority_baseline,
    breakdown,
    individual_baseline,
    summarise,
    template_spread,
    validators_baseline,
)
from tests.evaluation.shared_data import idcsqa


def P(correct, parsed=True, **groups):
    return ScoredPrediction(correct=correct, parsed=parsed, **groups)


def test_accuracy_counts_unparsed_as_wrong():
    predictions = [P(True), P(True), P(True, parsed=False), P(False)]

    score = accuracy(predictions)

    assert (score.accuracy, score.n) == (0.5, 4)


def test_all_right_all_wrong_and_empty():
    assert accuracy([P(True)] * 7) == Score(1.0, 1.0, 1.0, 7)
    assert accuracy([P(False)] * 3 + [P(True, parsed=False)]) == Score(0.0, 0.0, 0.0, 4)
    assert accuracy([]) == Score(None, None, None, 0)


def test_interval_is_deterministic_for_a_seed_and_brackets_the_accuracy():
    outcomes = [True] * 13 + [False] * 7

    first = accuracy_of(outcomes, seed=7)
    again = accuracy_of(outcomes, seed=7)
    other = accuracy_of(outcomes, seed=8)

    assert first == again
    assert first.accuracy == 0.65
    assert first.ci_low < 0.65 < first.ci_high
    assert (other.ci_low, other.ci_high) != (first.ci_low, first.ci_high) or other == first
    # The default seed is fixed: two reports of the same rows agree.
    assert accuracy_of(outcomes) == accuracy_of(outcomes, seed=SEED)


def test_interval_is_the_documented_binomial_percentile_bootstrap():
    outcomes = [True] * 30 + [False] * 10
    rng = np.random.default_rng(123)
    counts = rng.binomial(40, 30 / 40, size=500) / 40
    low, high = np.percentile(counts, [2.5, 97.5])

    assert accuracy_of(outcomes, seed=123, resamples=500) == Score(0.75, float(low), float(high), 40)


def test_interval_matches_resampling_the_predictions():
    # The binomial draw is the same distribution as resampling indices: with many resamples both
    # percentile intervals agree to within one prediction (1/40).
    outcomes = np.array([True] * 30 + [False] * 10)
    rng = np.random.default_rng(5)
    means = outcomes[rng.integers(0, 40, size=(20000, 40))].mean(axis=1)
    low, high = np.percentile(means, [2.5, 97.5])

    score = accuracy_of(outcomes.tolist(), seed=5, resamples=20000)

    assert abs(score.ci_low - low) <= 1 / 40
    assert abs(score.ci_high - high) <= 1 / 40


def test_breakdown_by_field_sorted_with_missing_as_empty():
    predictions = [
        P(True, category="food", endpoint="m1"),
        P(False, category="food", endpoint="m1"),
        P(True, category="place", endpoint="m2"),
        P(True, parsed=False, category="place", endpoint="m2"),
        P(True, category="place", endpoint="m2"),
        P(True, category=None, endpoint="m1"),
    ]

    by_category = breakdown(predictions, "category")
    by_endpoint = breakdown(predictions, "endpoint")

    assert list(by_category) == ["", "food", "place"]
    assert [(s.accuracy, s.n) for s in by_category.values()] == [(1.0, 1), (0.5, 2), (2 / 3, 3)]
    assert [(s.accuracy, s.n) for s in by_endpoint.values()] == [(2 / 3, 3), (2 / 3, 3)]
    assert by_category["food"] == accuracy([predictions[0], predictions[1]])


def test_breakdown_by_function():
    predictions = [P(True, language="ind"), P(False, language="sun"), P(True, language="sun")]

    by_pair = breakdown(predictions, lambda p: f"{p.language}/{p.parsed}")

    assert {name: (s.accuracy, s.n) for name, s in by_pair.items()} == {"ind/True": (1.0, 1), "sun/True": (0.5, 2)}


def test_template_spread_per_endpoint():
    predictions = (
        [P(c, endpoint="m1", template="t1") for c in (True, True, False, False)]
        + [P(c, endpoint="m1", template="t2") for c in (True, True, True, False)]
        + [P(c, endpoint="m1", template="t3") for c in (True, True, True, True)]
        + [P(c, endpoint="m2", template="t1") for c in (True, False)]
    )

    spread = template_spread(predictions)

    m1 = spread["m1"]
    assert (m1.mean, m1.min, m1.max) == (0.75, 0.5, 1.0)
    assert math.isclose(m1.std, math.sqrt((0.25**2 + 0 + 0.25**2) / 3), rel_tol=0, abs_tol=1e-15)
    assert {name: (s.accuracy, s.n) for name, s in m1.by_template.items()} == {
        "t1": (0.5, 4),
        "t2": (0.75, 4),
        "t3": (1.0, 4),
    }
    assert spread["m2"] == TemplateSpread(0.5, 0.0, 0.5, 0.5, {"t1": accuracy(predictions[12:])})


def test_summarise_is_the_report_shape():
    assert summarise([True, True]) == {"accuracy": 1.0, "ci_low": 1.0, "ci_high": 1.0, "n": 2}


def test_answerers_majority_ties_go_to_the_first_answer():
    rows = [
        HumanRow("B", ["B", "C", "C", "B", "A"]),  # 2-2-1 tie: B answered first -> right
        HumanRow("C", ["B", "C", "C", "B", "A"]),  # same answers, gold C -> wrong
        HumanRow("A", ["A", None, "A", "D", None]),  # right
        HumanRow(None, ["A", "A"]),  # no gold key: left out
        HumanRow("A", [None, None]),  # nobody answered: left out
    ]

    score = answerers_majority_baseline(rows)

    assert (score.accuracy, score.n) == (2 / 3, 3)


def test_validators_baseline_with_and_without_a_no_majority_label():
    rows = [
        HumanRow("e", ["e", "n", "c"]),
        HumanRow("n", ["c", "n", "c"]),
        HumanRow("n", ["n", "c", "e"]),
    ]

    with_fallback = validators_baseline(rows, no_majority="e")
    first_seen = validators_baseline(rows)

    assert (with_fallback.accuracy, with_fallback.n) == (1 / 3, 3)
    assert (first_seen.accuracy, first_seen.n) == (2 / 3, 3)


def test_individual_baseline_pools_every_answer():
    rows = [HumanRow("e", ["e", "n", "c"]), HumanRow("n", ["c", "n", None]), HumanRow(None, ["n"])]

    score = individual_baseline(rows)

    assert (score.accuracy, score.n) == (2 / 5, 5)


def test_human_baseline_of_the_published_indonesian_test_file():
    items = idcsqa("v2_human_gen")
    rows = [HumanRow(item["answer_creator"], list(item["answers"].values())) for item in items]

    # Independently: the most common answer of the answerers (in file order, W1..W6), a tie going to
    # the answer given first, against the author's answer key.
    right = 0
    for item in items:
        answers = list(item["answers"].values())
        counts = {a: answers.count(a) for a in answers}
        top = max(counts.values())
        winner = next(a for a in answers if counts[a] == top)
        right += winner == item["answer_creator"]

    score = answerers_majority_baseline(rows)

    assert (right, len(items)) == (1485, 1498)
    assert score.n == 1498
    assert score.accuracy == right / len(items) == 1485 / 1498
    assert score.ci_low < score.accuracy < score.ci_high
