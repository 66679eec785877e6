"""The NLI report (IndoNLI Tables 2-5, 9 and 11, per writer and validator) from the core's plain rows.

`report_sections(rows)` is pure: the core's report engine reads the project into ReportRows and renders
what this returns (JSON, the report page). Conventions:
- the pair's outcome, gold label and settling round come from the gold decision (rows.gold, written by
  the plugin's gold_decide); the individual labels from the judgments, keeping only those of rounds up
  to the settling one (a label given after the pair was settled is not one the protocol asked for);
- annotations needed are the protocol's 3N + X + Y for settled pairs (authoring included, Table 2);
  a pair still in validation counts the labels it has so far;
- shares in Table 3 are over the validated pairs; "individual label = gold" counts every label of a
  gold pair, the author's included; "individual label = author's" counts the validators' labels;
- corpus lengths are per pair, population sd (corpus.py reproduces Table 4 that way);
- artefacts are computed on a seeded sample when a split is large (the caps below), so the report stays
  within seconds at 120,000 pairs; each figure says how many pairs it used.
"""

from __future__ import annotations

import gc
import random
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import numpy as np

from annotation.task_types.base import JudgmentRecord, ReportRows
from annotation.task_types.nli import artefacts, corpus, rounds
from annotation.task_types.nli.labels import CODES, LABELS, PHENOMENA
from annotation.task_types.nli.splits import (
    EXCLUDED,
    KNOWN_LABELS,
    NOT_VALIDATED,
    PAIR_STATUSES,
    PENDING,
    SPLITS,
    Pair,
    build_pair,
    label_or_none,
)

ROUNDS = tuple(sorted(rounds.ROUND_SIZES))
# labels a pair settled in round n has had (author included): 3, 4, 5
LABELS_UP_TO = {n: 1 + sum(rounds.ROUND_SIZES[k] for k in ROUNDS if k <= n) for n in ROUNDS}
OVERLAP_CAP = 2_500  # pairs per split for word overlap (an LCS per pair is the slow part)
PMI_CAP = 30_000
BASELINE_CAP = 3_000  # pairs the hypothesis-only classifier is cross-validated on
BASELINE_MIN = 30  # fewer labelled pairs than this: no baseline (5 folds of 6 pairs say nothing)


Labelled = list[tuple[JudgmentRecord, str]]  # a pair's judgments with their (known) labels


def validator_labels(pair: Pair, labelled: Labelled) -> list[str]:
    """The validators' labels the protocol used for this pair, in round order (the rows' order within one)."""
    last = pair.round if pair.outcome not in ("pending", NOT_VALIDATED) else max(ROUNDS)
    used = [(j.round, label) for j, label in labelled if 1 <= j.round <= last]
    used.sort(key=lambda round_label: round_label[0])
    return [label for _, label in used]


def _share(part: int, whole: int) -> float:
    return part / whole if whole else 0.0


def _pairs(rows: ReportRows) -> tuple[list[Pair], dict[int, Labelled]]:
    by_item: dict[int, Labelled] = defaultdict(list)
    for judgment in rows.judgments:
        raw = judgment.value.get("label")
        label = KNOWN_LABELS.get(raw) if isinstance(raw, str) else None
        if label is None and raw is not None:
            label = label_or_none(raw)
        if label is not None:
            by_item[judgment.item_id].append((judgment, label))
    premises: dict = {}
    last_round = {item_id: max(j.round for j, _ in labelled) for item_id, labelled in by_item.items()}
    pairs = [
        build_pair(
            item, rows.gold.get(item.item_id), last_round.get(item.item_id, 0), rows.settings, rows.seed, premises
        )
        for item in rows.items
        if item.status in PAIR_STATUSES
    ]
    return pairs, by_item


# --- Table 2: rounds ----------------------------------------------------------------------------------


def rounds_table(validated: Sequence[Pair], labels: dict[int, list[str]]) -> dict[str, Any]:
    """Pairs per round, cumulative share with gold, annotations needed against MNLI's 5 per pair."""
    reached = dict.fromkeys(ROUNDS, 0)
    gold_after = dict.fromkeys(ROUNDS, 0)
    needed = 0
    for pair in validated:
        for number in ROUNDS:
            reached[number] += pair.round >= number
            gold_after[number] += pair.outcome == "gold" and pair.round <= number
        if pair.outcome == "pending":
            needed += 1 + len(labels[pair.item_id])
        else:
            needed += LABELS_UP_TO[min(pair.round, max(ROUNDS))]
    mnli = rounds.MNLI_LABELS_PER_PAIR * len(validated)
    return {
        "rounds": {str(n): reached[n] for n in ROUNDS},
        "gold_after_round": {str(n): gold_after[n] for n in ROUNDS},
        "cumulative_gold_share": {str(n): _share(gold_after[n], len(validated)) for n in ROUNDS},
        "annotations_needed": needed,
        "annotations_mnli": mnli,
        "saving_percent": 100.0 * (1 - needed / mnli) if mnli else 0.0,
    }


# --- Table 3: agreement -------------------------------------------------------------------------------


def agreement_table(pairs: Sequence[Pair], validated: Sequence[Pair], labels: dict[int, list[str]]) -> dict[str, Any]:
    individual_gold = individual_gold_equal = 0
    individual_author = individual_author_equal = 0
    for pair in validated:
        given = labels[pair.item_id]
        if pair.author_label is not None:
            individual_author += len(given)
            individual_author_equal += sum(label == pair.author_label for label in given)
        if pair.outcome == "gold":
            everyone = [pair.author_label, *given] if pair.author_label else given
            individual_gold += len(everyone)
            individual_gold_equal += sum(label == pair.gold_label for label in everyone)
    n = len(validated)
    gold = sum(p.outcome == "gold" for p in validated)
    gold_author = sum(p.outcome == "gold" and p.gold_label == p.author_label for p in validated)
    no_gold = sum(p.outcome == "no_gold" for p in validated)
    per_round = {}
    for number in ROUNDS:
        size = LABELS_UP_TO[number]
        units = [
            (p.author_label, *labels[p.item_id][: size - 1])
            for p in validated
            if p.round >= number and p.author_label and len(labels[p.item_id]) >= size - 1
        ]
        counts = _category_counts(units, size)
        per_round[str(number)] = {
            "pairs": len(units),
            "labels_per_pair": size,
            "fleiss_kappa": rounds.fleiss_kappa(counts),
            "krippendorff_alpha": rounds.krippendorff_alpha(counts),
        }
    return {
        "pairs_total": len(pairs),
        "pairs_validated": n,
        "share_validated": _share(n, len(pairs)),
        "pairs_with_gold": gold,
        "share_with_gold": _share(gold, n),
        "individual_equals_gold": _share(individual_gold_equal, individual_gold),
        "individual_equals_author": _share(individual_author_equal, individual_author),
        "gold_equals_author": _share(gold_author, n),
        "gold_differs_from_author": _share(gold - gold_author, n),
        "no_gold": _share(no_gold, n),
        "pending": sum(p.outcome == "pending" for p in validated),
        "per_round": per_round,
    }


def _category_counts(units: Sequence[Sequence[str]], size: int) -> np.ndarray:
    """rounds.category_counts, vectorised: units x labels matrix of how many raters chose each label."""
    index = {label: i for i, label in enumerate(LABELS)}
    codes = np.fromiter((index[label] for unit in units for label in unit), dtype=np.int64, count=len(units) * size)
    counts = np.zeros((len(units), len(LABELS)), dtype=np.int64)
    if len(units):
        np.add.at(counts, (np.repeat(np.arange(len(units)), size), codes), 1)
    return counts


# --- Table 4: corpus ------------------------------------------------------------------------------


def corpus_table(pairs: Sequence[Pair]) -> dict[str, Any]:
    out = {}
    for split in SPLITS:
        members = [p for p in pairs if p.split == split]
        if not members:
            continue
        stats = corpus.split_stats(members)
        out[split] = {
            "pairs": stats.pairs,
            "labels": stats.labels,
            "unlabeled": stats.unlabeled,
            "sentence_size": stats.sizes,
            "sentence_size_unknown": stats.sizes_unknown,
            "premise_len_mean": stats.premise_length.mean,
            "premise_len_sd": stats.premise_length.sd,
            "hypothesis_len_mean": stats.hypothesis_length.mean,
            "hypothesis_len_sd": stats.hypothesis_length.sd,
            "premises": len({p.premise_id for p in members}),
        }
    return out


# --- Section 5.2, Tables 5, 9, 11: artefacts ----------------------------------------------------------


def _sample(pairs: Sequence[Pair], cap: int, seed: int) -> list[Pair]:
    if len(pairs) <= cap:
        return list(pairs)
    return sorted(random.Random(seed).sample(list(pairs), cap), key=lambda p: p.item_id)


def artefacts_section(pairs: Sequence[Pair], seed: int) -> dict[str, Any]:
    labelled = [p for p in pairs if p.label in LABELS and p.split in SPLITS]
    overlap = {}
    for split in SPLITS:
        members = [p for p in labelled if p.split == split]
        if not members:
            continue
        sample = _sample(members, OVERLAP_CAP, seed)
        overlap[split] = {
            "pairs_used": len(sample),
            "by_label": {
                label: {
                    "pairs": summary.pairs,
                    "jaccard_mean": summary.mean.jaccard,
                    "lcs_mean": summary.mean.lcs,
                    "new_token_rate_mean": summary.mean.new_token_rate,
                    "jaccard_median": summary.median.jaccard,
                    "lcs_median": summary.median.lcs,
                    "new_token_rate_median": summary.median.new_token_rate,
                }
                for label, summary in artefacts.overlap_by_label(sample).items()
            },
        }
    pmi_rows = _sample(labelled, PMI_CAP, seed)
    # small projects: every word that occurs at all; the 20-hypothesis floor is for corpora of thousands
    min_count = 20 if len(pmi_rows) >= 2_000 else 2
    pmi = {
        label: [{"word": w.word, "pmi": w.pmi, "count_with_label": w.count_with_label, "count": w.count} for w in words]
        for label, words in artefacts.top_pmi_words(pmi_rows, top=5, min_count=min_count).items()
    }
    return {
        "overlap": overlap,
        "pmi": {"pairs_used": len(pmi_rows), "min_count": min_count, "top": pmi},
        "hypothesis_only": _baseline(labelled, seed),
    }


def _baseline(labelled: Sequence[Pair], seed: int) -> dict[str, Any] | None:
    sample = _sample(labelled, BASELINE_CAP, seed)
    counts = Counter(p.label for p in sample)
    folds = min(5, min(counts.values(), default=0))
    if len(sample) < BASELINE_MIN or len(counts) < 2 or folds < 2:
        return None  # too few pairs (or one label only) for a cross-validated classifier
    result = artefacts.hypothesis_only_baseline(sample, folds=folds, seed=seed % (2**32))
    return {
        "pairs_used": result.pairs,
        "folds": result.folds,
        "accuracy": result.accuracy,
        "accuracy_sd": result.accuracy_sd,
        "majority_accuracy": result.majority_accuracy,
    }


def phenomena_section(pairs: Iterable[Pair]) -> dict[str, dict[str, int]]:
    """Table 11: per inference tag, pairs in total and by label code; tags nobody used are left out, and
    so are values that are not one of the 15 tags (a payload is checked on write; this guards old rows)."""
    tagged = [p for p in pairs if p.tags and p.split != EXCLUDED]
    counts = artefacts.phenomenon_counts(_KnownTags(p) for p in tagged)
    return {tag: row for tag, row in counts.items() if row["total"]}


class _KnownTags:
    __slots__ = ("label", "phenomena")

    def __init__(self, pair: Pair) -> None:
        self.label = pair.label
        self.phenomena = [tag for tag in dict.fromkeys(pair.tags) if tag in PHENOMENA]


# --- people -------------------------------------------------------------------------------------------


def writers_section(rows: ReportRows, pairs: Sequence[Pair]) -> list[dict[str, Any]]:
    """Per writer: pairs, validated, with gold, gold = their label, time spent (once per premise: the six
    hypotheses of one authoring assignment share its time)."""
    seconds: dict[int | None, dict[int | None, float]] = defaultdict(dict)
    for item in rows.items:
        if item.seconds is not None and item.status in PAIR_STATUSES:
            seconds[item.author_id][item.unit_id] = max(item.seconds, seconds[item.author_id].get(item.unit_id, 0.0))
    by_author: dict[int | None, list[Pair]] = defaultdict(list)
    for pair in pairs:
        by_author[pair.author_id].append(pair)
    codes = {a.user_id: a.code for a in rows.annotators}
    order = [a.user_id for a in rows.annotators if a.user_id in by_author]
    order += sorted((uid for uid in by_author if uid not in codes), key=lambda uid: (uid is None, uid or 0))
    out = []
    for user_id in order:
        own = by_author[user_id]
        gold = [p for p in own if p.outcome == "gold"]
        spent = seconds.get(user_id, {})
        out.append(
            {
                "user_id": user_id,
                "code": codes.get(user_id) or own[0].author_code,
                "pairs": len(own),
                "premises": len({p.premise_id for p in own}),
                "validated": sum(p.validated for p in own),
                "gold": len(gold),
                "gold_equals_own_label": _share(sum(p.gold_label == p.author_label for p in gold), len(gold)),
                "no_gold": sum(p.outcome == "no_gold" for p in own),
                "seconds": sum(spent.values()),
                "seconds_per_premise": _share(sum(spent.values()), len(spent)) if spent else None,
            }
        )
    return out


# per validator counters, by index (a list per validator: ~275,000 judgments at 120,000 pairs)
_LABELS, _ON_GOLD, _EQ_GOLD, _WITH_AUTHOR, _EQ_AUTHOR, _TIMED = range(6)
_ROUND_BASE = 6  # then one counter per round


def validators_section(rows: ReportRows, pairs: Sequence[Pair], judgments: dict[int, Labelled]) -> list[dict[str, Any]]:
    """Per validator: labels given, agreement with the gold label and with the author's, time spent."""
    stats: dict[int, list[int]] = {}
    seconds: dict[int, float] = defaultdict(float)
    codes = {a.user_id: a.code for a in rows.annotators}
    size = _ROUND_BASE + max(ROUNDS) + 1
    for pair in pairs:
        labelled = judgments.get(pair.item_id)
        if not labelled:
            continue
        gold, author = pair.gold_label if pair.outcome == "gold" else None, pair.author_label
        for judgment, label in labelled:
            own = stats.get(judgment.user_id)
            if own is None:
                own = stats[judgment.user_id] = [0] * size
                codes.setdefault(judgment.user_id, judgment.user_code)
            own[_LABELS] += 1
            if 0 <= judgment.round <= max(ROUNDS):
                own[_ROUND_BASE + judgment.round] += 1
            if judgment.seconds is not None:
                seconds[judgment.user_id] += judgment.seconds
                own[_TIMED] += 1
            if gold is not None:
                own[_ON_GOLD] += 1
                own[_EQ_GOLD] += label == gold
            if author is not None:
                own[_WITH_AUTHOR] += 1
                own[_EQ_AUTHOR] += label == author
    order = [a.user_id for a in rows.annotators if a.user_id in stats]
    order += sorted(uid for uid in stats if uid not in set(order))
    return [
        {
            "user_id": uid,
            "code": codes.get(uid, ""),
            "labels": stats[uid][_LABELS],
            "by_round": {str(n): stats[uid][_ROUND_BASE + n] for n in ROUNDS},
            "on_gold_pairs": stats[uid][_ON_GOLD],
            "equals_gold": _share(stats[uid][_EQ_GOLD], stats[uid][_ON_GOLD]),
            "equals_author": _share(stats[uid][_EQ_AUTHOR], stats[uid][_WITH_AUTHOR]),
            "seconds": seconds[uid],
            "seconds_per_label": _share(seconds[uid], stats[uid][_TIMED]) if stats[uid][_TIMED] else None,
        }
        for uid in order
    ]


# --- the report ---------------------------------------------------------------------------------------


@contextmanager
def _collector_paused() -> Iterator[None]:
    """The report allocates ~10^6 small objects next to the ~10^6 objects of the rows; each of the cyclic
    collector's full passes re-scans all of them, which took about half the report's time at 120,000
    pairs. Nothing here makes reference cycles, so pausing it loses nothing."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def report_sections(rows: ReportRows, *, artefacts_too: bool = True) -> dict[str, Any]:
    """The NLI section of the project report (JSON-serialisable). See the module docstring."""
    with _collector_paused():
        return _report(rows, artefacts_too=artefacts_too)


def _report(rows: ReportRows, *, artefacts_too: bool) -> dict[str, Any]:
    pairs, judgments = _pairs(rows)
    validated = [p for p in pairs if p.validated and p.outcome != NOT_VALIDATED]
    labels = {p.item_id: validator_labels(p, judgments.get(p.item_id, [])) for p in validated}
    table_2 = rounds_table(validated, labels)
    agreement = agreement_table(pairs, validated, labels)
    outcomes = Counter(p.outcome for p in pairs)
    splits = Counter(p.split for p in pairs)
    report: dict[str, Any] = {
        "pairs": len(pairs),
        "premises": len({p.premise_id for p in pairs}),
        "validated": len(validated),
        **table_2,
        "gold": outcomes["gold"],
        "no_gold": outcomes["no_gold"],
        "pending": outcomes["pending"],
        "gold_equals_author": sum(p.outcome == "gold" and p.gold_label == p.author_label for p in pairs),
        "agreement": agreement,
        "splits": {split: splits[split] for split in (*SPLITS, EXCLUDED, PENDING)},
        "corpus": corpus_table(pairs),
        "phenomena": phenomena_section(pairs),
        "label_codes": CODES,
        "writers": writers_section(rows, pairs),
        "validators": validators_section(rows, pairs, judgments),
    }
    if artefacts_too:
        report["artefacts"] = artefacts_section(pairs, rows.seed)
    return report
