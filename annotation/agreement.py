"""Agreement maths as pure functions over plain lists and arrays (no ORM, no qc import): the core's
reports and the task types' report sections both use them (a task type never imports qc).

`majority` and `agreement_share` live in annotation.stats, with their tie-break rule.
"""

from __future__ import annotations

import math
import warnings
from collections import Counter
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

import krippendorff
import numpy as np
from django.utils.translation import pgettext_lazy

from annotation.stats import agreement_share as agreement_share
from annotation.stats import majority as majority

# Krippendorff's levels of measurement as the report pages show them (the code is the figure's key).
LEVEL_LABELS: Mapping[str, str] = {
    "nominal": pgettext_lazy("agreement level", "nominal"),
    "ordinal": pgettext_lazy("agreement level", "ordinal"),
    "interval": pgettext_lazy("agreement level", "interval"),
}


def value_counts(units: np.ndarray, values: np.ndarray, *, n_units: int, n_values: int) -> np.ndarray:
    """(N units x V values) matrix: how many coders gave value v to unit u, from parallel index arrays."""
    counts = np.zeros((n_units, n_values), dtype=np.int64)
    if len(units):
        np.add.at(counts, (units, values), 1)
    return counts


def alpha_nominal_counts(counts: np.ndarray) -> float | None:
    """Krippendorff's alpha (nominal) from a value-counts matrix; None when it is undefined.

    Value counts instead of a coders x units matrix: with 1,000 coders and 100,000 items the full
    matrix would be 800 MB of mostly NaN, the counts are 100,000 x 5.
    """
    counts = np.asarray(counts)
    pairable = counts[counts.sum(axis=1) >= 2]
    if pairable.shape[0] == 0 or np.count_nonzero(pairable.sum(axis=0)) < 2:
        # No unit with two coders, or every answer identical: expected disagreement is zero.
        return None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        value = float(krippendorff.alpha(value_counts=pairable, level_of_measurement="nominal"))
    return None if math.isnan(value) else value


def alpha_nominal(units: Iterable[Sequence[Hashable | None]]) -> float | None:
    """Krippendorff's alpha (nominal) over units given as lists of answers (None = not answered)."""
    domain: dict[Hashable, int] = {}
    unit_idx: list[int] = []
    value_idx: list[int] = []
    n_units = 0
    for u, answers in enumerate(units):
        n_units = u + 1
        for a in answers:
            if a is None:
                continue
            unit_idx.append(u)
            value_idx.append(domain.setdefault(a, len(domain)))
    if not domain:
        return None
    counts = value_counts(
        np.asarray(unit_idx, dtype=np.int64),
        np.asarray(value_idx, dtype=np.int64),
        n_units=n_units,
        n_values=len(domain),
    )
    return alpha_nominal_counts(counts)


@dataclass(frozen=True)
class KappaPair:
    a: str
    b: str
    items: int
    kappa: float | None


def cohen_kappa_pairs(
    per_item: Iterable[Sequence[tuple[str, Hashable]]], *, coders: Sequence[str], min_shared: int = 2
) -> list[KappaPair]:
    """Cohen's kappa for every pair of coders that answered at least `min_shared` items in common.

    per_item: for each item, its (coder, answer) pairs. Pairs are reported in `coders` order.
    kappa is None when undefined (both coders gave one and the same answer throughout).
    """
    position = {c: i for i, c in enumerate(coders)}
    shared: dict[tuple[str, str], tuple[list, list]] = {}
    for answers in per_item:
        ordered = sorted(
            ((c, a) for c, a in answers if a is not None and c in position), key=lambda ca: position[ca[0]]
        )
        for (ca, aa), (cb, ab) in combinations(ordered, 2):
            left, right = shared.setdefault((ca, cb), ([], []))
            left.append(aa)
            right.append(ab)
    out = []
    for (ca, cb), (left, right) in sorted(shared.items(), key=lambda kv: (position[kv[0][0]], position[kv[0][1]])):
        if len(left) < min_shared:
            continue
        out.append(KappaPair(a=ca, b=cb, items=len(left), kappa=_kappa(left, right)))
    return out


def _kappa(left: list, right: list) -> float | None:
    """Cohen's kappa as scikit-learn's cohen_kappa_score computes it (same operations in the same order,
    so the same float), in numpy: importing scikit-learn cost a report ~170 MB and seconds."""
    labels = sorted(set(left) | set(right))
    if len(labels) < 2:
        return None
    index = {label: i for i, label in enumerate(labels)}
    n = len(labels)
    confusion = np.zeros((n, n), dtype=np.int64)
    np.add.at(
        confusion,
        (np.fromiter(map(index.__getitem__, left), np.int64), np.fromiter(map(index.__getitem__, right), np.int64)),
        1,
    )
    return kappa_from_confusion(confusion)


def kappa_from_confusion(confusion: np.ndarray) -> float | None:
    """Cohen's kappa from the (left x right) counts over the labels either coder gave, in sorted label
    order (as _kappa builds it: callers that count in numpy get the same float)."""
    n = confusion.shape[0]
    confusion = confusion.astype(np.float64)
    sum0 = np.sum(confusion, axis=0)
    sum1 = np.sum(confusion, axis=1)
    expected = np.outer(sum0, sum1) / np.sum(sum0)
    weights = np.ones((n, n), dtype=np.float64)
    np.fill_diagonal(weights, 0)
    denominator = np.sum(weights * expected)
    if denominator == 0:
        return None
    value = float(1 - np.sum(weights * confusion) / denominator)
    return None if math.isnan(value) else value


def conflict_counts(rows: Iterable[tuple[Hashable, Hashable, Hashable, Hashable]]) -> Counter:
    """(answerer, creator) -> number of answers different from the creator's answer.

    rows: (answerer, creator, answer, creator_answer). Rows without a creator or a creator answer
    are not conflicts of anyone and are skipped.
    """
    counts: Counter = Counter()
    for answerer, creator, answer, creator_answer in rows:
        if creator is None or creator_answer in (None, "") or answer is None:
            continue
        if answer != creator_answer:
            counts[(answerer, creator)] += 1
    return counts


def matrix(counts: Mapping[tuple[Hashable, Hashable], int], keys: Sequence[Hashable]) -> list[list[int]]:
    """Square matrix, rows = first element of the key (answerer), columns = second (creator)."""
    return [[int(counts.get((r, c), 0)) for c in keys] for r in keys]


def group_counts(counts: Mapping[tuple[Hashable, Hashable], int], group_of: Mapping[Hashable, Hashable]) -> Counter:
    """Aggregate an (answerer, creator) count table by a grouping of both sides (e.g. region)."""
    grouped: Counter = Counter()
    for (r, c), n in counts.items():
        grouped[(group_of.get(r, ""), group_of.get(c, ""))] += n
    return grouped


UNKNOWN_REGION = "(unknown)"


def conflict_tables(counts: Mapping[tuple[Hashable, Hashable], int], annotators: Sequence[Any]) -> dict[str, Any]:
    """Conflict counts by user id (conflict_counts) as the reports' two tables: answerer x creator by
    annotator code, and the same grouped by region. `annotators` (.user_id, .code, .region) in order."""
    code = {a.user_id: a.code for a in annotators}
    by_code = Counter({(code[r], code[c]): n for (r, c), n in counts.items() if r in code and c in code})
    codes = [a.code for a in annotators]
    region_of = {a.code: a.region or UNKNOWN_REGION for a in annotators}
    regions = list(dict.fromkeys(region_of[c] for c in codes))
    return {
        "conflicts": {"annotators": codes, "counts": matrix(by_code, codes)},
        "conflicts_by_region": {"regions": regions, "counts": matrix(group_counts(by_code, region_of), regions)},
    }
