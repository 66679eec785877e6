"""Annotation artefacts (Section 5.2, Tables 5, 9 and 11): word overlap, PMI, hypothesis-only baseline,
inference tags by label.

Words here are `text.words` (lower case, punctuation dropped), not Table 4's space-delimited tokens:
with punctuation attached, "Batad." and "Batad" would count as different words. Table 5 itself is not
reproduced exactly by any tokenisation we tried; the closest is the mean Jaccard with these words
(Test_LAY E/C/N 31.9/29.2/21.2 against the paper's 31.8/28.6/21.1; the paper's LCS and new-token figures
look like medians, ours are 66.7/62.5/50.0 and 20.0/28.6/42.9 against 71.4/66.7/54.5 and 16.7/25.0/37.5),
so both mean and median are given.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from annotation.task_types.nli.labels import CODES, LABELS, PHENOMENA
from annotation.task_types.nli.text import words

# --- word overlap (Table 5) ------------------------------------------------------------------------


def lcs_length(left: Sequence[str], right: Sequence[str]) -> int:
    """Length of the longest common subsequence (ordered, gaps allowed); O(len(left) * len(right))."""
    previous = [0] * (len(right) + 1)
    for a in left:
        current = [0]
        for j, b in enumerate(right, start=1):
            current.append(previous[j - 1] + 1 if a == b else max(previous[j], current[j - 1]))
        previous = current
    return previous[-1]


@dataclass(frozen=True)
class Overlap:
    jaccard: float  # |P ∩ H| / |P ∪ H| over word sets (unordered overlap)
    lcs: float  # LCS(P, H) / len(H) (ordered overlap)
    new_token_rate: float  # share of hypothesis words not in the premise (diversity)


def word_overlap(premise: str, hypothesis: str) -> Overlap:
    p, h = words(premise), words(hypothesis)
    if not h:
        return Overlap(0.0, 0.0, 0.0)
    p_set, h_set = set(p), set(h)
    return Overlap(
        jaccard=len(p_set & h_set) / len(p_set | h_set),
        lcs=lcs_length(p, h) / len(h),
        new_token_rate=sum(word not in p_set for word in h) / len(h),
    )


@dataclass(frozen=True)
class OverlapSummary:
    pairs: int
    mean: Overlap  # in percent
    median: Overlap  # in percent


def overlap_by_label(rows: Iterable) -> dict[str, OverlapSummary]:
    """Table 5: word overlap per label, mean and median in percent."""
    values: dict[str, list[Overlap]] = {label: [] for label in LABELS}
    for row in rows:
        if row.label in values:
            values[row.label].append(word_overlap(row.premise, row.hypothesis))
    out = {}
    for label, overlaps in values.items():
        if not overlaps:
            continue
        array = 100 * np.array([(o.jaccard, o.lcs, o.new_token_rate) for o in overlaps])
        out[label] = OverlapSummary(
            len(overlaps),
            Overlap(*map(float, array.mean(axis=0))),
            Overlap(*map(float, np.median(array, axis=0))),
        )
    return out


# --- PMI (Table 9) ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class PmiWord:
    word: str
    label: str
    pmi: float
    count_with_label: int  # hypotheses of this label containing the word
    count: int  # hypotheses containing the word (Table 9's "96/160")


def top_pmi_words(
    rows: Iterable, *, top: int = 3, min_count: int = 20, smoothing: float = 1.0
) -> dict[str, list[PmiWord]]:
    """Top words per label by smoothed PMI between a hypothesis word and the pair's label.

    PMI(w, l) = log2(p(l | w) / p(l)), with p(l | w) = (c(w, l) + k) / (c(w) + k * 3): add-k smoothing, so a
    word seen a handful of times cannot top the list on luck, and min_count drops rare words outright.
    A word counts once per hypothesis. On the released lay Dev + Test_LAY the top 3 holds the paper's lay
    words (apapun, bukan, tidak for contradiction; selain, juga for neutral; salah for entailment); the
    values differ from Table 9's, which also counted the training split (not in the shared data).
    """
    word_counts: Counter[str] = Counter()
    pair_counts: Counter[tuple[str, str]] = Counter()
    label_counts: Counter[str] = Counter()
    for row in rows:
        if row.label not in LABELS:
            continue
        label_counts[row.label] += 1
        for word in set(words(row.hypothesis)):
            word_counts[word] += 1
            pair_counts[word, row.label] += 1
    total = sum(label_counts.values())
    out: dict[str, list[PmiWord]] = {}
    for label in LABELS:
        if not label_counts[label]:
            continue
        prior = label_counts[label] / total
        scored = []
        for word, count in word_counts.items():
            if count < min_count:
                continue
            with_label = pair_counts[word, label]
            posterior = (with_label + smoothing) / (count + smoothing * len(LABELS))
            scored.append(PmiWord(word, label, math.log2(posterior / prior), with_label, count))
        scored.sort(key=lambda item: (-item.pmi, item.word))
        out[label] = scored[:top]
    return out


# --- hypothesis-only baseline (Table 8) ------------------------------------------------------------


@dataclass(frozen=True)
class BaselineResult:
    folds: int
    pairs: int
    accuracy: float  # mean over folds
    accuracy_sd: float
    majority_accuracy: float  # predicting each training fold's most common label


def hypothesis_only_baseline(rows: Iterable, *, folds: int = 5, seed: int = 13) -> BaselineResult:
    """TF-IDF over hypothesis words + logistic regression on hypotheses alone, seeded stratified k-fold.

    Accuracy above the majority class means the hypothesis alone gives the label away (artefacts).
    Word unigrams: adding bigrams scored lower on Dev (45.9% against 47.8%), the data being small.
    scikit-learn is imported here so that importing this module for overlap or PMI stays cheap.
    """
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import StratifiedKFold
    from sklearn.pipeline import make_pipeline
    from threadpoolctl import threadpool_limits

    pairs = [(row.hypothesis, row.label) for row in rows if row.label in LABELS]
    texts = np.array([text for text, _ in pairs], dtype=object)
    labels = np.array([label for _, label in pairs])
    splitter = StratifiedKFold(n_splits=folds, shuffle=True, random_state=seed)
    accuracies, majority = [], []
    # one BLAS/OpenMP thread: on a busy 2-core host the default two threads made each lbfgs fit on Dev
    # take 2-3.6 s instead of 0.08 s (oversubscription); the problem is far too small to gain from threads
    with threadpool_limits(limits=1):
        for train, test in splitter.split(texts, labels):
            model = make_pipeline(
                TfidfVectorizer(analyzer=words, sublinear_tf=True),
                LogisticRegression(max_iter=1000),
            )
            model.fit(texts[train], labels[train])
            accuracies.append(float((model.predict(texts[test]) == labels[test]).mean()))
            most_common = Counter(labels[train]).most_common(1)[0][0]
            majority.append(float((labels[test] == most_common).mean()))
    return BaselineResult(
        folds=folds,
        pairs=len(pairs),
        accuracy=float(np.mean(accuracies)),
        accuracy_sd=float(np.std(accuracies)),
        majority_accuracy=float(np.mean(majority)),
    )


# --- inference tags by label (Table 11) ------------------------------------------------------------


def phenomenon_counts(rows: Iterable) -> dict[str, dict[str, int]]:
    """Per tag: pairs in total and per label code (e, c, n), Table 11's "#pairs (E:C:N)"."""
    counts = {tag: {"total": 0, **{CODES[label]: 0 for label in LABELS}} for tag in PHENOMENA}
    for row in rows:
        for tag in row.phenomena:
            counts[tag]["total"] += 1
            if row.label in CODES:
                counts[tag][CODES[row.label]] += 1
    return counts
