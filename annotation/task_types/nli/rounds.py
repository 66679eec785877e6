"""IndoNLI's incremental label validation (Section 3.2, Table 2) and agreement per round.

Round 1: two validators (never the author) label the pair; if both chose the author's label, it is gold.
Round 2: one more validator; a label chosen by 3 of the 4 (author included) is gold.
Round 3: one more validator; a label chosen by 3 of the 5 is gold; otherwise the pair has no gold.

A settled pair never gets the next round's validator, which is the whole saving over MNLI's fixed
5 labels per pair: 3N + X + Y annotations (authoring included) instead of 5N. Who may validate (not
the author) is the judging plan's business; these functions only see labels.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import krippendorff
import numpy as np

from annotation.task_types.nli.labels import LABELS, normalize_label

GOLD = "gold"
NEEDS_ROUND = "needs_round"
NO_GOLD = "no_gold"
PENDING = "pending"

# validators asked in each round
ROUND_SIZES: dict[int, int] = {1: 2, 2: 1, 3: 1}
LAST_ROUND = max(ROUND_SIZES)
VOTES_FOR_GOLD = 3
MNLI_LABELS_PER_PAIR = 5  # author + 4 validators, every pair (Williams et al. 2018)


@dataclass(frozen=True)
class Decision:
    outcome: str  # gold | needs_round | no_gold | pending
    label: str | None  # the gold label, only when outcome is gold
    round: int  # the round the decision was taken in (for pending: the round still collecting labels)
    next_round: int | None  # the round that needs labels now; None once the pair is settled
    reason: str
    # the labels the decision used, author first, then validators in round order; labels given for
    # rounds after the pair was settled are not in here (the protocol would not have asked for them)
    labels: tuple[str, ...] = ()


def _tally(votes: Sequence[str]) -> str:
    counts = Counter(votes)
    return ", ".join(f"{label} {counts[label]}" for label in LABELS if counts[label])


def _normalized_round(number: int, values: Sequence[object]) -> list[str]:
    out = []
    for value in values:
        label = normalize_label(value)
        if label is None:
            raise ValueError(f"round {number}: a validator's label is missing ({value!r})")
        out.append(label)
    return out


def decide(author_label: object, labels_by_round: Mapping[int, Sequence[object]]) -> Decision:
    """The protocol's decision for one pair from the author's label and the validators' labels so far.

    Raises ValueError for input the protocol cannot produce: an unknown label, a round other than 1-3,
    more labels in a round than it asks for, or labels for a round while an earlier one is incomplete.
    """
    author = normalize_label(author_label)
    if author is None:
        raise ValueError("the author's label is missing: a pair is validated against its author's label")
    unknown_rounds = sorted(set(labels_by_round) - set(ROUND_SIZES))
    if unknown_rounds:
        raise ValueError(f"unknown round(s) {unknown_rounds}: the protocol has rounds 1 to {LAST_ROUND}")
    rounds = {number: _normalized_round(number, labels_by_round.get(number, ())) for number in ROUND_SIZES}
    for number, labels in rounds.items():
        if len(labels) > ROUND_SIZES[number]:
            raise ValueError(f"round {number} has {len(labels)} labels; it asks for {ROUND_SIZES[number]}")

    votes = [author]
    for number in sorted(ROUND_SIZES):
        given = rounds[number]
        later = [n for n in sorted(rounds) if n > number and rounds[n]]
        if len(given) < ROUND_SIZES[number]:
            if later:
                raise ValueError(f"round {later[0]} has labels but round {number} is incomplete")
            reason = f"round {number} has {len(given)} of {ROUND_SIZES[number]} labels"
            return Decision(PENDING, None, number, number, reason, tuple(votes + given))
        votes += given
        outcome, label, reason = _after_round(number, author, votes)
        if outcome == NEEDS_ROUND:
            if later:
                continue
            return Decision(NEEDS_ROUND, None, number, number + 1, reason, tuple(votes))
        if later:
            reason += f" (labels of round {later[0]} on not used: settled in round {number})"
        return Decision(outcome, label, number, None, reason, tuple(votes))
    raise AssertionError("unreachable: the last round always settles the pair")  # pragma: no cover


def _after_round(number: int, author: str, votes: list[str]) -> tuple[str, str | None, str]:
    """(outcome, gold label, reason) once round `number` is complete; votes hold every label so far."""
    if number == 1:
        # "both validators agree with the author" is 3 of 3; said the paper's way so it reads like the guidelines
        if all(vote == author for vote in votes[1:]):
            return GOLD, author, f"round 1: both validators chose {author}, as the author did"
        validators = ", ".join(votes[1:])
        return NEEDS_ROUND, None, f"round 1: the author chose {author}, the validators {validators}: one more validator"
    label, count = Counter(votes).most_common(1)[0]
    if count >= VOTES_FOR_GOLD:
        return GOLD, label, f"round {number}: {count} of {len(votes)} chose {label}"
    tally = f"no label has {VOTES_FOR_GOLD} of {len(votes)} ({_tally(votes)})"
    if number < LAST_ROUND:
        return NEEDS_ROUND, None, f"round {number}: {tally}: one more validator"
    return NO_GOLD, None, f"round {number}: {tally}: no gold"


def replay(labels: Sequence[object]) -> Decision:
    """Replay the protocol on an MNLI/SNLI-style row: [label1 (author), label2, label3, label4, label5].

    label2 and label3 are round 1, label4 round 2, label5 round 3. Only what the protocol would have asked
    for is used: a pair settled in round 1 never uses label4 or label5. An empty label ("" or None, as in
    rows with only the author's label) stops the replay there, so the pair stays pending.
    """
    values = [normalize_label(value) for value in labels]
    if len(values) > 1 + sum(ROUND_SIZES.values()):
        raise ValueError(f"{len(values)} labels: the protocol uses at most {1 + sum(ROUND_SIZES.values())}")
    if values and None in values:
        values = values[: values.index(None)]
    if not values:
        raise ValueError("the author's label (label1) is missing")
    author, validators = values[0], values[1:]
    by_round: dict[int, list[str]] = {}
    start = 0
    for number in sorted(ROUND_SIZES):
        chunk = validators[start : start + ROUND_SIZES[number]]
        if chunk:
            by_round[number] = chunk
        start += ROUND_SIZES[number]
    return decide(author, by_round)


# --- agreement -------------------------------------------------------------------------------------


def category_counts(units: Iterable[Sequence[str]], categories: Sequence[str] = LABELS) -> np.ndarray:
    """units x categories matrix: how many raters put each unit in each category."""
    index = {category: i for i, category in enumerate(categories)}
    rows = []
    for unit in units:
        row = [0] * len(categories)
        for value in unit:
            row[index[value]] += 1
        rows.append(row)
    return np.array(rows, dtype=np.int64).reshape(len(rows), len(categories))


def fleiss_kappa(counts: np.ndarray) -> float | None:
    """Fleiss' kappa from a units x categories count matrix with the same number of raters per unit.

    None when it is undefined (no units, or every rating in one category: chance agreement is 1).
    """
    counts = np.asarray(counts, dtype=np.float64)
    if counts.ndim != 2 or counts.shape[0] == 0:
        return None
    raters = counts.sum(axis=1)
    n = raters[0]
    if not np.all(raters == n):
        raise ValueError("Fleiss' kappa needs the same number of raters for every unit")
    if n < 2:
        raise ValueError("Fleiss' kappa needs at least two raters per unit")
    p_category = counts.sum(axis=0) / counts.sum()
    p_unit = ((counts**2).sum(axis=1) - n) / (n * (n - 1))
    p_observed = p_unit.mean()
    p_expected = (p_category**2).sum()
    if np.isclose(p_expected, 1.0):
        return None
    return float((p_observed - p_expected) / (1 - p_expected))


def krippendorff_alpha(counts: np.ndarray) -> float | None:
    """Nominal Krippendorff's alpha (the `krippendorff` package) from a units x categories count matrix.

    None when it is undefined (every rating in one category: no expected disagreement).
    """
    counts = np.asarray(counts)
    if counts.ndim != 2 or counts.shape[0] == 0 or np.count_nonzero(counts.sum(axis=0)) < 2:
        return None
    return float(krippendorff.alpha(value_counts=counts, level_of_measurement="nominal"))


@dataclass(frozen=True)
class RoundAgreement:
    round: int
    pairs: int  # pairs whose round was complete
    labels_per_pair: int  # author + validators up to this round
    fleiss_kappa: float | None
    krippendorff_alpha: float | None


@dataclass(frozen=True)
class RoundsSummary:
    pairs: int
    reached: dict[int, int]  # pairs that reached each round (Table 2's #pairs)
    gold_after: dict[int, int]  # pairs with gold once each round is done (cumulative)
    cumulative_gold_share: dict[int, float]  # gold_after / pairs (Table 2's cum-cons)
    outcomes: dict[str, int]
    annotations_needed: int  # authoring + every validator label used
    annotations_mnli: int  # 5 per pair
    saving_percent: float  # 100 * (1 - needed / mnli)
    agreement: dict[int, RoundAgreement] = field(default_factory=dict)


def rounds_summary(decisions: Sequence[Decision]) -> RoundsSummary:
    """Table 2 from decisions: pairs per round, cumulative share with gold, annotations against MNLI's 5N.

    Agreement per round is computed over the pairs whose round was complete, with every label they had
    by then (author included): 3 per pair in round 1, 4 in round 2, 5 in round 3. Pairs reach rounds 2
    and 3 because they were contested, so those rounds' agreement is low by construction.
    """
    pairs = len(decisions)
    reached = dict.fromkeys(ROUND_SIZES, 0)
    gold_after = dict.fromkeys(ROUND_SIZES, 0)
    for decision in decisions:
        last = decision.next_round or decision.round
        for number in ROUND_SIZES:
            if number <= last:
                reached[number] += 1
            if decision.outcome == GOLD and decision.round <= number:
                gold_after[number] += 1
    needed = sum(len(decision.labels) for decision in decisions)
    mnli = MNLI_LABELS_PER_PAIR * pairs
    agreement = {}
    labels_so_far = 1
    for number in sorted(ROUND_SIZES):
        labels_so_far += ROUND_SIZES[number]
        units = [d.labels[:labels_so_far] for d in decisions if len(d.labels) >= labels_so_far]
        counts = category_counts(units)
        agreement[number] = RoundAgreement(
            number, len(units), labels_so_far, fleiss_kappa(counts), krippendorff_alpha(counts)
        )
    return RoundsSummary(
        pairs=pairs,
        reached=reached,
        gold_after=gold_after,
        cumulative_gold_share={n: (gold_after[n] / pairs if pairs else 0.0) for n in ROUND_SIZES},
        outcomes={o: sum(d.outcome == o for d in decisions) for o in (GOLD, NO_GOLD, NEEDS_ROUND, PENDING)},
        annotations_needed=needed,
        annotations_mnli=mnli,
        saving_percent=100.0 * (1 - needed / mnli) if mnli else 0.0,
        agreement=agreement,
    )
