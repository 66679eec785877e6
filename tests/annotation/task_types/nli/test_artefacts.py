"""Annotation artefacts (IndoNLI Section 5.2) on hand cases and on the released files."""

import time

import pytest

from annotation.task_types.nli.artefacts import (
    hypothesis_only_baseline,
    lcs_length,
    overlap_by_label,
    phenomenon_counts,
    top_pmi_words,
    word_overlap,
)
from annotation.task_types.nli.files import IndoNliRow, read_diagnostic, read_indonli
from tests.annotation.task_types.nli.data import data_file


def _rows(name):
    rows = list(read_indonli(data_file("indonli", name)))
    assert all(isinstance(row, IndoNliRow) for row in rows)
    return rows


def test_word_overlap_by_hand():
    overlap = word_overlap("Suku Batad bertani padi di bukit.", "Suku Batad tinggal di pantai.")

    # premise words {suku, batad, bertani, padi, di, bukit}, hypothesis [suku, batad, tinggal, di, pantai]
    assert overlap.jaccard == pytest.approx(3 / 8)
    assert overlap.lcs == pytest.approx(3 / 5)
    assert overlap.new_token_rate == pytest.approx(2 / 5)
    assert lcs_length(["a", "b", "c", "d"], ["b", "d", "a"]) == 2


def test_overlap_by_label_on_test_lay():
    # Table 5 (Test_LAY): entailment pairs overlap most, neutral least; new tokens the other way round
    summary = overlap_by_label(_rows("test_lay.jsonl"))

    e, c, n = summary["entailment"].mean, summary["contradiction"].mean, summary["neutral"].mean
    assert e.jaccard > c.jaccard > n.jaccard
    assert e.lcs > c.lcs > n.lcs
    assert e.new_token_rate < c.new_token_rate < n.new_token_rate
    assert [summary[label].pairs for label in ("entailment", "contradiction", "neutral")] == [808, 764, 629]


def test_pmi_finds_the_papers_lay_words():
    # Table 9 (LAY): bukan, tidak, apapun for contradiction; selain, juga, banyak for neutral
    top = top_pmi_words(_rows("val.jsonl") + _rows("test_lay.jsonl"), top=5)

    contradiction = {item.word: (item.count_with_label, item.count) for item in top["contradiction"]}
    assert {"tidak", "bukan", "apapun"} <= set(contradiction)
    assert contradiction["tidak"] == (704, 872)
    assert {"selain", "juga"} <= {item.word for item in top["neutral"]}


def test_hypothesis_only_baseline_beats_the_majority_class():
    rows = _rows("val.jsonl")
    started = time.monotonic()

    result = hypothesis_only_baseline(rows, folds=5, seed=13)

    assert time.monotonic() - started < 10
    assert (result.folds, result.pairs) == (5, 2197)
    assert result.accuracy > result.majority_accuracy + 0.05
    assert round(result.majority_accuracy, 3) == 0.367  # 807 / 2197 entailment
    assert round(result.accuracy, 3) == 0.478  # seeded: the same folds and fit every run


def test_phenomenon_counts_reproduce_table_11():
    rows = read_diagnostic(data_file("indonli", "diagnostic.jsonl"))
    assert len(rows) == 650 and all(isinstance(row, IndoNliRow) and not row.notes for row in rows)

    counts = phenomenon_counts(rows)

    # Mahendra et al. 2021, Table 11: #pairs (E:C:N) per inference tag in the diagnostic set
    table_11 = {
        "MORPH": (96, 47, 31, 18), "STRUCT": (100, 53, 36, 11), "LSUB": (99, 48, 42, 9),
        "NEG": (75, 11, 55, 9), "COORD": (38, 14, 13, 11), "QUANT": (59, 18, 20, 21),
        "NUM": (120, 40, 43, 37), "COMP": (51, 12, 15, 24), "LEXSEM": (166, 68, 73, 25),
        "IDIOM": (28, 12, 3, 13), "COREF": (70, 29, 23, 18), "SPAT": (37, 11, 8, 18),
        "TEMP": (68, 15, 20, 33), "CS": (105, 42, 18, 45), "WORLD": (70, 16, 20, 34),
    }  # fmt: skip
    assert {tag: (c["total"], c["e"], c["c"], c["n"]) for tag, c in counts.items()} == table_11
