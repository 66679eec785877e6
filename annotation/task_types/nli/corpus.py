"""Corpus statistics per split, the paper's Table 4, and the premise's sentence size.

Measured on the released Dev and Test_LAY files, Table 4 is reproduced when:
- lengths are space-delimited tokens counted once per *pair* (a premise counts once for each of its
  hypotheses). Counting each premise_id once gives Dev 20.1 (11.0), not the paper's 19.9 (10.9);
- the standard deviation is the population one (ddof=0). The sample one (ddof=1) rounds to the same
  first decimal on both splits (Dev premise 10.931 vs 10.934, Test_LAY 11.637 vs 11.640), so the table
  cannot tell them apart; we keep numpy's default and say so;
- sentence-size counts are the file's own `sentence_size` per pair ("multiple" is the paper's PARAGRAPH).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from annotation.task_types.nli.labels import LABELS
from annotation.task_types.nli.text import split_sentences, tokens

SINGLE = "single"
DOUBLE = "double"
PARAGRAPH = "multiple"  # the released files' word for the paper's PARAGRAPH (3+ sentences)
SIZES: tuple[str, ...] = (SINGLE, DOUBLE, PARAGRAPH)
SIZE_NAMES: dict[str, str] = {SINGLE: "SINGLE-SENT", DOUBLE: "DOUBLE-SENTS", PARAGRAPH: "PARAGRAPH"}


class PairLike(Protocol):
    premise_id: str
    premise: str
    hypothesis: str
    label: str | None
    sentence_size: str | None


def sentence_size(premise: str) -> str:
    """single, double or multiple (3+ sentences), from the text (see text.split_sentences)."""
    count = len(split_sentences(premise))
    if count <= 1:
        return SINGLE
    return DOUBLE if count == 2 else PARAGRAPH


@dataclass(frozen=True)
class MeanSd:
    mean: float
    sd: float  # population standard deviation (ddof=0), see the module docstring
    n: int

    @classmethod
    def of(cls, values: list[int]) -> MeanSd:
        if not values:
            return cls(0.0, 0.0, 0)
        array = np.asarray(values, dtype=np.float64)
        return cls(float(array.mean()), float(array.std(ddof=0)), len(values))

    def rounded(self, digits: int = 1) -> tuple[float, float]:
        return round(self.mean, digits), round(self.sd, digits)


@dataclass(frozen=True)
class SplitStats:
    pairs: int
    labels: dict[str, int]  # canonical label -> pairs
    unlabeled: int  # pairs without a (known) label; never counted under a label
    premise_length: MeanSd  # per pair
    hypothesis_length: MeanSd
    sizes: dict[str, int]  # the file's sentence_size -> pairs
    sizes_unknown: int  # pairs whose file gave no or an unknown sentence_size


def split_stats(rows: Iterable[PairLike]) -> SplitStats:
    """Table 4's column for one split."""
    labels: Counter[str] = Counter()
    sizes: Counter[str] = Counter()
    premise_lengths: list[int] = []
    hypothesis_lengths: list[int] = []
    for row in rows:
        labels[row.label if row.label in LABELS else None] += 1
        sizes[row.sentence_size if row.sentence_size in SIZES else None] += 1
        premise_lengths.append(len(tokens(row.premise)))
        hypothesis_lengths.append(len(tokens(row.hypothesis)))
    return SplitStats(
        pairs=len(premise_lengths),
        labels={label: labels[label] for label in LABELS},
        unlabeled=labels[None],
        premise_length=MeanSd.of(premise_lengths),
        hypothesis_length=MeanSd.of(hypothesis_lengths),
        sizes={size: sizes[size] for size in SIZES},
        sizes_unknown=sizes[None],
    )


def table_column(data_split: str | None, annotator_type: str | None) -> str:
    """Table 4's column name: train, dev, test_lay, test_expert."""
    if data_split == "test" and annotator_type:
        return f"test_{annotator_type}"
    return data_split or "unknown"


def corpus_report(rows: Iterable) -> dict[str, SplitStats]:
    """Table 4: one SplitStats per column (split, and for test the annotator type)."""
    groups: dict[str, list] = {}
    for row in rows:
        groups.setdefault(table_column(row.data_split, row.annotator_type), []).append(row)
    return {column: split_stats(group) for column, group in groups.items()}


@dataclass(frozen=True)
class SizeAgreement:
    pairs: int
    pairs_equal: int
    premises: int  # distinct premise_id
    premises_equal: int
    confusion: dict[tuple[str | None, str], int]  # (file's size, computed size) -> premises

    @property
    def share(self) -> float:
        return self.pairs_equal / self.pairs if self.pairs else 0.0

    @property
    def premise_share(self) -> float:
        return self.premises_equal / self.premises if self.premises else 0.0


def size_agreement(rows: Iterable[PairLike]) -> SizeAgreement:
    """How often sentence_size(premise) equals the file's sentence_size, per pair and per premise.

    The file's value is kept on import whatever this says: it is the release's own classification.
    """
    pairs = pairs_equal = 0
    per_premise: dict[str, tuple[str | None, str]] = {}
    computed_cache: dict[str, str] = {}
    for row in rows:
        computed = computed_cache.get(row.premise)
        if computed is None:
            computed = computed_cache[row.premise] = sentence_size(row.premise)
        pairs += 1
        pairs_equal += computed == row.sentence_size
        per_premise.setdefault(row.premise_id, (row.sentence_size, computed))
    confusion = Counter(per_premise.values())
    return SizeAgreement(
        pairs=pairs,
        pairs_equal=pairs_equal,
        premises=len(per_premise),
        premises_equal=sum(count for (given, computed), count in confusion.items() if given == computed),
        confusion=dict(confusion),
    )
