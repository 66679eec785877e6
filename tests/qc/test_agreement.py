"""Agreement maths without a database."""

from collections import Counter

import numpy as np
from sklearn.metrics import cohen_kappa_score

from qc.agreement import (
    agreement_share,
    alpha_nominal,
    alpha_nominal_counts,
    cohen_kappa_pairs,
    conflict_counts,
    group_counts,
    majority,
    matrix,
    value_counts,
)

# Krippendorff's own worked example (nominal alpha 0.691358): 3 coders x 15 units, None = missing.
KRIPPENDORFF = [
    [None, None, None, None, None, 3, 4, 1, 2, 1, 1, 3, 3, None, 3],
    [1, None, 2, 1, 3, 3, 4, 3, None, None, None, None, None, None, None],
    [None, None, 2, 1, 3, 4, 4, None, 2, 1, 1, 3, 3, None, 4],
]


def test_majority_tie_goes_to_the_first_answer_given():
    assert majority(["B", "C", "C", "B", "A"]) == "B"
    assert majority(["C", "B", "C", "B", "A"]) == "C"
    assert majority(["A", "D", "D", "E", "A", "D"]) == "D"
    assert majority([None, "E", None]) == "E"
    assert majority([]) is None
    assert majority([None]) is None


def test_agreement_share():
    assert agreement_share(["A", "A", "B", None], "A") == 2 / 3
    assert agreement_share([], None) is None


def test_alpha_matches_krippendorffs_worked_example():
    units = [[coder[u] for coder in KRIPPENDORFF] for u in range(15)]

    assert round(alpha_nominal(units), 6) == 0.691358


def test_alpha_from_value_counts_equals_alpha_from_units():
    counts = value_counts(np.array([0, 0, 1, 1, 1, 2, 2]), np.array([0, 0, 1, 1, 0, 2, 2]), n_units=3, n_values=3)

    assert counts.tolist() == [[2, 0, 0], [1, 2, 0], [0, 0, 2]]
    assert alpha_nominal_counts(counts) == alpha_nominal([["A", "A"], ["B", "B", "A"], ["C", "C"]])


def test_alpha_is_none_when_undefined():
    assert alpha_nominal([["A", "A"], ["A", "A", "A"]]) is None
    assert alpha_nominal([["A"], ["B"]]) is None
    assert alpha_nominal([]) is None


def test_kappa_pairs_match_scikit_learn_and_skip_thin_pairs():
    per_item = [
        [("W1", "A"), ("W2", "A"), ("W3", "B")],
        [("W2", "B"), ("W1", "B"), ("W3", "B")],
        [("W1", "C"), ("W2", "A")],
        [("W1", "A"), ("W2", "A")],
        [("W3", "A"), ("W4", "A")],
    ]

    pairs = cohen_kappa_pairs(per_item, coders=["W1", "W2", "W3", "W4"], min_shared=2)

    assert [(p.a, p.b, p.items) for p in pairs] == [("W1", "W2", 4), ("W1", "W3", 2), ("W2", "W3", 2)]
    assert pairs[0].kappa == cohen_kappa_score(["A", "B", "C", "A"], ["A", "B", "A", "A"])
    assert pairs[1].kappa == cohen_kappa_score(["A", "B"], ["B", "B"])
    assert cohen_kappa_pairs([[("W1", "A"), ("W2", "A")]] * 3, coders=["W1", "W2"])[0].kappa is None


def test_conflicts_count_answers_different_from_the_creators():
    rows = [
        ("W2", "W1", "A", "A"),
        ("W2", "W1", "B", "A"),
        ("W3", "W1", "C", "A"),
        ("W1", "W2", "D", "E"),
        ("W1", None, "D", "E"),
        ("W1", "W3", "D", ""),
    ]

    counts = conflict_counts(rows)

    assert counts == Counter({("W2", "W1"): 1, ("W3", "W1"): 1, ("W1", "W2"): 1})
    assert matrix(counts, ["W1", "W2", "W3"]) == [[0, 1, 0], [1, 0, 0], [1, 0, 0]]
    regions = {"W1": "Java", "W2": "Java", "W3": "Bali"}
    assert group_counts(counts, regions) == Counter({("Java", "Java"): 2, ("Bali", "Java"): 1})
