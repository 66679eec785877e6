"""Replaying IndoNLI's rounds on MNLI-id's dev set (label1 = author, label2..label5 = validators).

The expected figures are computed here a second, plain way, straight from label1..label5, so the test
does not check the rounds code against itself; the literals pin what that gave on this file.
"""

import json
from collections import Counter

import pytest

from annotation.task_types.nli.files import MnliRow, read_mnli
from annotation.task_types.nli.rounds import replay, rounds_summary
from tests.annotation.task_types.nli.data import data_file

FIELDS = ("label1", "label2", "label3", "label4", "label5")


@pytest.fixture(scope="module")
def raw():
    with open(data_file("mnli-id", "dev.jsonl"), encoding="utf-8") as handle:
        return [json.loads(line) for line in handle]


@pytest.fixture(scope="module")
def decisions():
    rows = list(read_mnli(data_file("mnli-id", "dev.jsonl")))
    assert all(isinstance(row, MnliRow) and not row.notes for row in rows)
    return rows, [replay(row.labels) for row in rows]


def _plain(raw_rows):
    """Count straight from the five labels: which rows settle after 3, 4 and 5 labels."""
    settled_3 = settled_4 = settled_5 = 0
    gold = []
    for row in raw_rows:
        labels = [row[name] for name in FIELDS]
        if labels[0] == labels[1] == labels[2]:
            settled_3 += 1
            gold.append(labels[0])
            continue
        top4, n4 = Counter(labels[:4]).most_common(1)[0]
        if n4 >= 3:
            settled_4 += 1
            gold.append(top4)
            continue
        top5, n5 = Counter(labels).most_common(1)[0]
        settled_5 += n5 >= 3
        gold.append(top5 if n5 >= 3 else "-")
    pairs = len(raw_rows)
    reach_2 = pairs - settled_3
    reach_3 = reach_2 - settled_4
    return {
        "gold": gold,
        "reached": {1: pairs, 2: reach_2, 3: reach_3},
        "gold_after": {1: settled_3, 2: settled_3 + settled_4, 3: settled_3 + settled_4 + settled_5},
        "annotations": 3 * pairs + reach_2 + reach_3,  # the paper's 3N + X + Y
        "mnli": 5 * pairs,
    }


def test_replay_reproduces_gold_label_for_every_pair(raw, decisions):
    rows, replayed = decisions

    assert len(replayed) == 2198
    assert [d.label or "-" for d in replayed] == [row["gold_label"] for row in raw]
    assert [d.label or "-" for d in replayed] == _plain(raw)["gold"]
    assert Counter(d.outcome for d in replayed) == {"gold": 2158, "no_gold": 40}


def test_rounds_summary_matches_a_plain_count(raw, decisions):
    _, replayed = decisions
    plain = _plain(raw)

    summary = rounds_summary(replayed)

    assert summary.reached == plain["reached"] == {1: 2198, 2: 656, 3: 226}
    assert summary.gold_after == plain["gold_after"] == {1: 1542, 2: 1972, 3: 2158}
    assert summary.cumulative_gold_share == {n: plain["gold_after"][n] / 2198 for n in (1, 2, 3)}
    assert [round(100 * summary.cumulative_gold_share[n], 1) for n in (1, 2, 3)] == [70.2, 89.7, 98.2]
    assert (summary.annotations_needed, summary.annotations_mnli) == (plain["annotations"], plain["mnli"])
    assert (summary.annotations_needed, summary.annotations_mnli) == (7476, 10990)
    assert summary.saving_percent == pytest.approx(100 * (1 - plain["annotations"] / plain["mnli"]))
    assert round(summary.saving_percent, 1) == 32.0


def test_agreement_per_round_uses_the_labels_available_then(decisions):
    _, replayed = decisions

    agreement = rounds_summary(replayed).agreement

    assert [(a.pairs, a.labels_per_pair) for a in agreement.values()] == [(2198, 3), (656, 4), (226, 5)]
    # round 1 is every pair's author + two validators; later rounds hold only contested pairs
    assert round(agreement[1].fleiss_kappa, 3) == 0.695
    assert round(agreement[1].krippendorff_alpha, 3) == 0.695
    assert agreement[3].fleiss_kappa < agreement[2].fleiss_kappa < agreement[1].fleiss_kappa
