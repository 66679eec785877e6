"""The incremental validation rule (IndoNLI Section 3.2) on hand cases, and the agreement maths."""

import numpy as np
import pytest

from annotation.task_types.nli.rounds import (
    Decision,
    category_counts,
    decide,
    fleiss_kappa,
    krippendorff_alpha,
    replay,
    rounds_summary,
)

E, N, C = "entailment", "neutral", "contradiction"


def test_round_1_both_validators_agree_with_the_author():
    decision = decide("e", {1: ["e", "E"]})

    assert decision == Decision(
        "gold", E, 1, None, "round 1: both validators chose entailment, as the author did", (E, E, E)
    )


def test_round_1_split_goes_to_round_2():
    decision = decide(E, {1: [E, N]})

    assert (decision.outcome, decision.label, decision.round, decision.next_round) == ("needs_round", None, 1, 2)
    assert decision.labels == (E, E, N)


def test_round_1_validators_agreeing_against_the_author_is_not_gold_yet():
    # 2 of 3 chose neutral: the paper asks for the author's label twice more in round 1, so round 2 decides
    decision = decide(E, {1: [N, N]})

    assert (decision.outcome, decision.next_round) == ("needs_round", 2)


def test_round_2_settles_with_3_of_4():
    decision = decide(E, {1: [N, N], 2: [N]})

    assert decision == Decision("gold", N, 2, None, "round 2: 3 of 4 chose neutral", (E, N, N, N))


def test_round_2_without_3_of_4_goes_to_round_3():
    decision = decide(E, {1: [E, N], 2: [C]})

    assert (decision.outcome, decision.round, decision.next_round) == ("needs_round", 2, 3)
    assert "no label has 3 of 4 (entailment 2, neutral 1, contradiction 1)" in decision.reason


def test_round_3_settles_with_3_of_5():
    decision = decide(C, {1: [E, N], 2: [E], 3: [E]})

    assert decision == Decision("gold", E, 3, None, "round 3: 3 of 5 chose entailment", (C, E, N, E, E))


def test_round_3_without_3_of_5_is_no_gold():
    decision = decide(E, {1: [E, N], 2: [N], 3: [C]})

    assert (decision.outcome, decision.label, decision.round, decision.next_round) == ("no_gold", None, 3, None)
    assert decision.reason == "round 3: no label has 3 of 5 (entailment 2, neutral 2, contradiction 1): no gold"


@pytest.mark.parametrize(
    ("labels_by_round", "round_", "reason"),
    [
        ({}, 1, "round 1 has 0 of 2 labels"),
        ({1: [E]}, 1, "round 1 has 1 of 2 labels"),
        ({1: [E, N]}, None, None),
        ({1: [E, N], 2: []}, None, None),
    ],
)
def test_pending_while_the_current_round_is_short(labels_by_round, round_, reason):
    decision = decide(E, labels_by_round)

    if round_ is None:
        assert decision.outcome == "needs_round"
    else:
        assert (decision.outcome, decision.round, decision.next_round, decision.reason) == ("pending", 1, 1, reason)


def test_labels_after_settlement_are_not_used():
    decision = decide(E, {1: [E, E], 2: [N], 3: [N]})

    assert (decision.outcome, decision.label, decision.labels) == ("gold", E, (E, E, E))
    assert "not used: settled in round 1" in decision.reason


@pytest.mark.parametrize(
    ("author", "labels_by_round", "message"),
    [
        ("-", {1: [E, E]}, "author's label is missing"),
        ("maybe", {1: [E, E]}, "unknown label"),
        (E, {4: [E]}, "unknown round"),
        (E, {1: [E, E, E]}, "round 1 has 3 labels"),
        (E, {1: [E], 2: [N]}, "round 2 has labels but round 1 is incomplete"),
        (E, {1: [E, "-"]}, "label is missing"),
    ],
)
def test_input_the_protocol_cannot_produce_is_refused(author, labels_by_round, message):
    with pytest.raises(ValueError, match=message):
        decide(author, labels_by_round)


def test_replay_uses_only_the_labels_the_protocol_asks_for():
    settled_in_round_1 = replay(["neutral", "neutral", "neutral", "contradiction", "contradiction"])
    settled_in_round_2 = replay(["neutral", "entailment", "neutral", "neutral", "contradiction"])
    only_author = replay(["neutral", "", "", "", ""])

    assert (settled_in_round_1.label, settled_in_round_1.labels) == (N, (N, N, N))
    assert (settled_in_round_2.label, settled_in_round_2.round, len(settled_in_round_2.labels)) == (N, 2, 4)
    assert (only_author.outcome, only_author.round) == ("pending", 1)


def test_summary_counts_rounds_annotations_and_saving():
    decisions = [
        decide(E, {1: [E, E]}),  # 3 annotations
        decide(E, {1: [N, N], 2: [N]}),  # 4
        decide(E, {1: [E, N], 2: [C], 3: [E]}),  # 5
        decide(E, {1: [E, N], 2: [N], 3: [C]}),  # 5, no gold
    ]

    summary = rounds_summary(decisions)

    assert summary.reached == {1: 4, 2: 3, 3: 2}
    assert summary.gold_after == {1: 1, 2: 2, 3: 3}
    assert summary.cumulative_gold_share == {1: 0.25, 2: 0.5, 3: 0.75}
    assert summary.outcomes == {"gold": 3, "no_gold": 1, "needs_round": 0, "pending": 0}
    assert (summary.annotations_needed, summary.annotations_mnli) == (17, 20)
    assert summary.saving_percent == pytest.approx(15.0)
    assert [(a.round, a.pairs, a.labels_per_pair) for a in summary.agreement.values()] == [
        (1, 4, 3),
        (2, 3, 4),
        (3, 2, 5),
    ]


# Wikipedia, "Fleiss' kappa", worked example: 10 subjects, 14 raters, 5 categories; kappa = 0.210
WIKIPEDIA_FLEISS = [
    [0, 0, 0, 0, 14],
    [0, 2, 6, 4, 2],
    [0, 0, 3, 5, 6],
    [0, 3, 9, 2, 0],
    [2, 2, 8, 1, 1],
    [7, 7, 0, 0, 0],
    [3, 2, 6, 3, 0],
    [2, 5, 3, 2, 2],
    [6, 5, 2, 1, 0],
    [0, 2, 2, 3, 7],
]


def test_fleiss_kappa_on_the_textbook_example():
    assert round(fleiss_kappa(np.array(WIKIPEDIA_FLEISS)), 3) == 0.210


def test_fleiss_kappa_edge_cases():
    assert fleiss_kappa(category_counts([[E, E, E], [N, N, N]])) == 1.0
    assert fleiss_kappa(category_counts([[E, E, E], [E, E, E]])) is None  # chance agreement is 1
    assert fleiss_kappa(category_counts([])) is None
    with pytest.raises(ValueError, match="same number of raters"):
        fleiss_kappa(category_counts([[E, E, E], [E, E]]))


def test_krippendorff_alpha_on_the_textbook_example():
    # Krippendorff (2011), "Computing Krippendorff's alpha-reliability", nominal example: alpha = 0.743
    units = [
        [1, 1, 1], [2, 2, 3, 2], [3, 3, 3, 3], [3, 3, 3, 3], [2, 2, 2, 2], [1, 2, 3, 4],
        [4, 4, 4, 4], [1, 1, 2, 1], [2, 2, 2, 2], [5, 5, 5], [1, 1], [3],
    ]  # fmt: skip
    counts = category_counts(units, categories=[1, 2, 3, 4, 5])

    assert round(krippendorff_alpha(counts), 3) == 0.743
    assert krippendorff_alpha(category_counts([[E, E], [E, E]])) is None
