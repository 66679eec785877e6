"""The csqa report from the core's numpy columns (ReportColumns): the same dict as build_csqa_report on
the same project's ReportRows (a test compares them), with array operations instead of a loop over
half a million answers. Pure, no database, no qc import.

Each distinct answer is read once with report.answer_of and given an index (equal answers share one,
the labels A-E first: they are the alpha's columns); each distinct flags object with report.flags_of.
Float figures are computed with the same operations in the same order as the row path (alpha from the
same count matrix, kappa from the same confusion matrix, mean agreement summed in item order), so they
are the same floats.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np

from annotation.agreement import KappaPair, alpha_nominal_counts, conflict_tables, kappa_from_confusion
from annotation.task_types.base import ReportColumns
from annotation.task_types.csqa.payload import LABELS
from annotation.task_types.csqa.report import LABEL_INDEX, answer_of, flags_of

NONE = -1


def report_sections_from_columns(columns: ReportColumns, *, min_shared_for_kappa: int = 2) -> dict[str, Any]:
    c = columns
    index: dict[Any, int] = dict(LABEL_INDEX)
    at = np.array([_answer_index(answer_of(v), index) for v in c.values], dtype=np.int64)
    answer, author_answer = at[c.judgment_value], at[c.item_value]
    n_items, n_values = len(c.item_id), len(index)
    item = c.judgment_item
    excluded = c.item_status == (c.statuses.index("excluded") if "excluded" in c.statuses else NONE)

    # Majority: the most given answer, ties to the one given first in annotator order.
    given = answer >= 0
    counts = np.bincount(item[given] * n_values + answer[given], minlength=n_items * n_values)
    counts = counts.reshape(n_items, n_values)
    answered = counts.sum(axis=1)
    top = counts.max(axis=1)
    on_top = np.flatnonzero(given & (counts[item, np.maximum(answer, 0)] == top[item]))
    first = on_top[_starts(item[on_top])]
    winner = np.full(n_items, NONE, dtype=np.int64)
    winner[item[first]] = answer[first]
    equals_author = (winner != NONE) & (winner == author_answer)
    share = np.divide(top, answered, out=np.zeros(n_items), where=answered > 0)

    labels = counts[:, : len(LABELS)]
    with_author = labels.copy()
    listed = np.flatnonzero((author_answer >= 0) & (author_answer < len(LABELS)))
    with_author[listed, author_answer[listed]] += 1
    judgments_per_item = np.bincount(item, minlength=n_items)

    categories = []
    for name in sorted(set(c.categories)):
        rows = np.isin(c.item_category, [k for k, n in enumerate(c.categories) if n == name])
        shares = share[rows & (answered > 0)].tolist()
        categories.append(
            {
                "category": name,
                "items": int(rows.sum()),
                "excluded": int(excluded[rows].sum()),
                "judgments": int(judgments_per_item[rows].sum()),
                "majority_equals_author": int(equals_author[rows].sum()),
                "alpha_nominal": alpha_nominal_counts(labels[rows]),
                "alpha_nominal_with_author": alpha_nominal_counts(with_author[rows]),
                "mean_agreement": sum(shares) / len(shares) if shares else None,
            }
        )

    n_equal = int(equals_author.sum())
    return {
        "items": n_items,
        "judgments": len(item),
        "excluded": int(excluded.sum()),
        "majority_equals_author": n_equal,
        "majority_equals_author_share": n_equal / n_items if n_items else None,
        "alpha_nominal": alpha_nominal_counts(labels),
        "alpha_nominal_with_author": alpha_nominal_counts(with_author),
        "categories": categories,
        "annotators": _annotators(c, answer, author_answer),
        "kappa": [
            {"a": k.a, "b": k.b, "items": k.items, "kappa": k.kappa}
            for k in _kappa_pairs(c, answer, list(index), min_shared_for_kappa)
        ],
        **conflict_tables(_conflicts(c, answer, author_answer), c.annotators),
    }


def _starts(sorted_keys: np.ndarray) -> np.ndarray:
    """Where each run of equal keys begins (the first of each item's judgments: they are sorted by item)."""
    return np.flatnonzero(np.r_[True, sorted_keys[1:] != sorted_keys[:-1]]) if len(sorted_keys) else sorted_keys


def _dense(keys: np.ndarray, size: int) -> tuple[np.ndarray, np.ndarray]:
    """np.unique(keys, return_inverse=True) for keys in [0, size): by counting, without sorting
    1,500,000 pair keys, when size is small enough for a table."""
    if size > 1 << 22:
        return np.unique(keys, return_inverse=True)
    distinct = np.flatnonzero(np.bincount(keys, minlength=size))
    slot = np.zeros(size, dtype=np.int64)
    slot[distinct] = np.arange(len(distinct))
    return distinct, slot[keys]


def _answer_index(answer: Any, index: dict[Any, int]) -> int:
    return NONE if answer is None else index.setdefault(answer, len(index))


def _codes(columns: ReportColumns) -> list[str]:
    """Each person's code as build_csqa_report names them: the annotator's code, else user<id>."""
    code = {a.user_id: a.code for a in columns.annotators}
    return [code.get(user_id, f"user{user_id}") for user_id in columns.people]


def _annotators(c: ReportColumns, answer: np.ndarray, author_answer: np.ndarray) -> list[dict[str, Any]]:
    """Per person: the listed annotators, then anyone else who wrote or answered, by id (c.people's order)."""
    item, person, author = c.judgment_item, c.judgment_person, c.item_author
    bits = np.array([flags_of(f) for f in c.flags], dtype=bool).reshape(len(c.flags), 3)
    uncertain, question, option = (bits[c.judgment_flags, k] for k in range(3))
    item_author, item_answer = author[item], author_answer[item]
    has_author = item_author != NONE
    scored = (item_answer != NONE) & (answer != NONE)

    def per_person(ids: np.ndarray) -> list[int]:
        return np.bincount(ids, minlength=len(c.people)).tolist()

    authored = per_person(author[author != NONE])
    answers = per_person(person)
    given = [per_person(person[flag]) for flag in (uncertain, question, option)]
    received = [per_person(item_author[has_author & flag]) for flag in (question, option)]
    n_scored = per_person(person[scored])
    correct = per_person(person[scored & (answer == item_answer)])
    region = {a.user_id: a.region for a in c.annotators}
    return [
        {
            "code": code,
            "region": region.get(user_id, ""),
            "authored": authored[k],
            "answers": answers[k],
            "uncertain": given[0][k],
            "question_flags_given": given[1][k],
            "option_flags_given": given[2][k],
            "question_flags_received": received[0][k],
            "option_flags_received": received[1][k],
            "accuracy_against_authors": correct[k] / n_scored[k] if n_scored[k] else None,
        }
        for k, (user_id, code) in enumerate(zip(c.people, _codes(c), strict=True))
    ]


def _kappa_pairs(c: ReportColumns, answer: np.ndarray, values: list[Any], min_shared: int) -> list[KappaPair]:
    """cohen_kappa_pairs over the items' answers: every two coders of an item, as (left, right) in
    coder order, counted into one confusion matrix per pair of coders."""
    coders = [a.code for a in c.annotators]
    position = {code: i for i, code in enumerate(coders)}
    item = c.judgment_item
    coder = np.array([position.get(code, NONE) for code in _codes(c)], dtype=np.int64)[c.judgment_person]
    kept = np.flatnonzero((answer != NONE) & (coder != NONE))
    # By item, then coder order; stable, so equal coders keep the annotator order as sorted() keeps it.
    # Coders are the annotators in that order, so the sort is needed only when codes repeat.
    if np.any((item[kept][1:] == item[kept][:-1]) & (coder[kept][1:] < coder[kept][:-1])):
        kept = kept[np.lexsort((coder[kept], item[kept]))]
    left, right = [], []
    for gap in range(1, len(kept)):
        a, b = kept[:-gap], kept[gap:]
        same = item[a] == item[b]
        if not same.any():
            break  # an item's answers are adjacent: no pair this far apart, none farther
        left.append(a[same])
        right.append(b[same])
    if not left:
        return []
    lhs, rhs = np.concatenate(left), np.concatenate(right)
    n_coders, n_values = len(coders), len(values)
    pairs, pair_at = _dense(coder[lhs] * n_coders + coder[rhs], n_coders * n_coders)
    confusion = np.bincount(
        (pair_at * n_values + answer[lhs]) * n_values + answer[rhs], minlength=len(pairs) * n_values * n_values
    ).reshape(len(pairs), n_values, n_values)
    out = []
    for pair, matrix in zip(pairs.tolist(), confusion, strict=True):
        shared = int(matrix.sum())
        if shared < min_shared:
            continue
        # The labels either coder gave, sorted by value as _kappa sorts them.
        given = sorted(np.flatnonzero(matrix.sum(axis=0) + matrix.sum(axis=1)).tolist(), key=values.__getitem__)
        kappa = kappa_from_confusion(matrix[np.ix_(given, given)]) if len(given) >= 2 else None
        out.append(KappaPair(a=coders[pair // n_coders], b=coders[pair % n_coders], items=shared, kappa=kappa))
    return out


def _conflicts(c: ReportColumns, answer: np.ndarray, author_answer: np.ndarray) -> Counter:
    """conflict_counts: (answerer, author) user ids -> answers different from the author's."""
    item_author, item_answer = c.item_author[c.judgment_item], author_answer[c.judgment_item]
    differ = (item_author != NONE) & (item_answer != NONE) & (answer != NONE) & (answer != item_answer)
    n = len(c.people)
    pairs, pair_at = _dense(c.judgment_person[differ] * n + item_author[differ], n * n)
    counts = np.bincount(pair_at, minlength=len(pairs))
    return Counter(
        {(c.people[pair // n], c.people[pair % n]): k for pair, k in zip(pairs.tolist(), counts.tolist(), strict=True)}
    )
