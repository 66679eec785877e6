"""The NLI report (report_sections) on hand cases and on rows built from the released files.

The expected figures come from the paper's text (Tables 4 and 11) or are counted here a second, plain
way straight from the files' label columns, never from the rounds code under test.
"""

import json
from collections import Counter

import pytest
from django.utils import translation

from annotation.task_types import get_task_type
from annotation.task_types.base import AnnotatorInfo, GoldInfo, JudgmentRecord, ReportRows
from annotation.task_types.nli.reports import report_sections
from tests.annotation.task_types.nli.data import data_file
from tests.annotation.task_types.nli.records import decide, diagnostic_rows, indonli_rows, item, mnli_rows

# Mahendra et al. 2021, Table 4, columns Dev and Test_LAY (copied from the paper's text)
TABLE_4 = {
    "dev": {
        "labels": {"entailment": 807, "contradiction": 749, "neutral": 641},
        "premise": (19.9, 10.9),
        "hypothesis": (7.7, 2.8),
        "sentence_size": {"single": 1784, "double": 336, "multiple": 77},
    },
    "test_lay": {
        "labels": {"entailment": 808, "contradiction": 764, "neutral": 629},
        "premise": (20.4, 11.6),
        "hypothesis": (7.7, 3.1),
        "sentence_size": {"single": 1836, "double": 282, "multiple": 83},
    },
}
FIELDS = ("label1", "label2", "label3", "label4", "label5")


def _plain_protocol(path):
    """Per pair: the labels the protocol asks for (3, 4 or 5) and the gold label, from label1..label5."""
    out = []
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            labels = [json.loads(line)[name] for name in FIELDS]
            for used in (3, 4, 5):
                top, count = Counter(labels[:used]).most_common(1)[0]
                settled = labels[0] == labels[1] == labels[2] if used == 3 else count >= 3
                if settled or used == 5:
                    out.append((labels[:used], top if settled else None))
                    break
    return out


@pytest.fixture(scope="module")
def mnli_report():
    return report_sections(mnli_rows(data_file("mnli-id", "dev.jsonl")))


def test_rounds_on_mnli_dev_equal_a_plain_count(mnli_report):
    plain = _plain_protocol(data_file("mnli-id", "dev.jsonl"))
    pairs = len(plain)
    reached = {n: sum(len(labels) >= n + 2 for labels, _ in plain) for n in (1, 2, 3)}
    gold_after = {n: sum(gold is not None and len(labels) <= n + 2 for labels, gold in plain) for n in (1, 2, 3)}
    needed = sum(len(labels) for labels, _ in plain)

    report = mnli_report

    assert report["rounds"] == {str(n): reached[n] for n in (1, 2, 3)} == {"1": 2198, "2": 656, "3": 226}
    assert report["gold_after_round"] == {str(n): gold_after[n] for n in (1, 2, 3)}
    assert report["cumulative_gold_share"] == {str(n): gold_after[n] / pairs for n in (1, 2, 3)}
    assert report["annotations_needed"] == needed == 3 * 2198 + 656 + 226
    assert report["annotations_mnli"] == 5 * 2198
    assert report["saving_percent"] == pytest.approx(100 * (1 - needed / (5 * pairs)))
    assert (report["gold"], report["no_gold"], report["pending"]) == (2158, 40, 0)
    assert report["gold_equals_author"] == sum(gold == labels[0] for labels, gold in plain)
    assert json.loads(json.dumps(report)) == report


def test_agreement_table_on_mnli_dev_equals_a_plain_count(mnli_report):
    plain = _plain_protocol(data_file("mnli-id", "dev.jsonl"))
    with_gold = [(labels, gold) for labels, gold in plain if gold]
    everyone = [label == gold for labels, gold in with_gold for label in labels]
    validators = [label == labels[0] for labels, _ in plain for label in labels[1:]]

    table = mnli_report["agreement"]

    assert (table["pairs_total"], table["pairs_validated"], table["share_validated"]) == (2198, 2198, 1.0)
    assert table["pairs_with_gold"] == len(with_gold) == 2158
    assert table["share_with_gold"] == 2158 / 2198
    assert table["individual_equals_gold"] == sum(everyone) / len(everyone)
    assert table["individual_equals_author"] == sum(validators) / len(validators)
    assert table["gold_equals_author"] == sum(gold == labels[0] for labels, gold in with_gold) / 2198
    assert table["gold_differs_from_author"] == sum(gold != labels[0] for labels, gold in with_gold) / 2198
    assert table["no_gold"] == 40 / 2198
    per_round = table["per_round"]
    assert [(per_round[n]["pairs"], per_round[n]["labels_per_pair"]) for n in "123"] == [(2198, 3), (656, 4), (226, 5)]
    # the same figures test_mnli_replay pins for rounds.rounds_summary
    assert round(per_round["1"]["fleiss_kappa"], 3) == 0.695
    assert round(per_round["1"]["krippendorff_alpha"], 3) == 0.695


def test_validators_on_mnli_dev(mnli_report):
    plain = _plain_protocol(data_file("mnli-id", "dev.jsonl"))
    # W2 and W3 gave label2 and label3 on every pair (all 2,198, round 1)
    w2 = next(v for v in mnli_report["validators"] if v["code"] == "W2")
    on_gold = [(labels[1], gold) for labels, gold in plain if gold]

    assert (w2["labels"], w2["by_round"]) == (2198, {"1": 2198, "2": 0, "3": 0})
    assert w2["on_gold_pairs"] == 2158
    assert w2["equals_gold"] == sum(label == gold for label, gold in on_gold) / 2158
    assert [w["code"] for w in mnli_report["writers"]] == ["W1"]
    assert mnli_report["writers"][0]["pairs"] == 2198


def test_corpus_of_dev_and_test_lay_equals_table_4():
    rows = indonli_rows(data_file("indonli", "val.jsonl"), data_file("indonli", "test_lay.jsonl"))

    corpus = report_sections(rows, artefacts_too=False)["corpus"]

    assert sorted(corpus) == ["dev", "test_lay"]
    for split, expected in TABLE_4.items():
        column = corpus[split]
        assert column["labels"] == expected["labels"]
        assert column["sentence_size"] == expected["sentence_size"]
        assert (round(column["premise_len_mean"], 1), round(column["premise_len_sd"], 1)) == expected["premise"]
        assert (round(column["hypothesis_len_mean"], 1), round(column["hypothesis_len_sd"], 1)) == expected[
            "hypothesis"
        ]
        assert (column["unlabeled"], column["sentence_size_unknown"]) == (0, 0)


def test_artefacts_on_test_lay():
    rows = indonli_rows(data_file("indonli", "test_lay.jsonl"))

    artefacts = report_sections(rows)["artefacts"]

    overlap = artefacts["overlap"]["test_lay"]
    assert overlap["pairs_used"] == 2201
    by_label = overlap["by_label"]
    assert [by_label[label]["pairs"] for label in ("entailment", "contradiction", "neutral")] == [808, 764, 629]
    # Table 5's order: entailment overlaps most, neutral least; new tokens the other way round
    assert (
        by_label["entailment"]["jaccard_mean"]
        > by_label["contradiction"]["jaccard_mean"]
        > by_label["neutral"]["jaccard_mean"]
    )
    assert by_label["entailment"]["new_token_rate_median"] < by_label["neutral"]["new_token_rate_median"]
    top = {entry["word"]: entry for entry in artefacts["pmi"]["top"]["contradiction"]}
    assert {"tidak", "bukan"} <= set(top)
    baseline = artefacts["hypothesis_only"]
    assert (baseline["pairs_used"], baseline["folds"]) == (2201, 5)
    assert baseline["majority_accuracy"] == pytest.approx(808 / 2201, abs=0.002)
    assert baseline["accuracy"] > baseline["majority_accuracy"] + 0.05


def test_phenomena_by_label_reproduce_table_11_rows():
    report = report_sections(diagnostic_rows(data_file("indonli", "diagnostic.jsonl")), artefacts_too=False)

    phenomena = report["phenomena"]
    # Table 11, #pairs (E:C:N)
    assert phenomena["LEXSEM"] == {"total": 166, "e": 68, "c": 73, "n": 25}
    assert phenomena["NEG"] == {"total": 75, "e": 11, "c": 55, "n": 9}
    assert phenomena["IDIOM"] == {"total": 28, "e": 12, "c": 3, "n": 13}
    assert len(phenomena) == 15


# --- hand cases ---------------------------------------------------------------------------------------


def _hand_rows():
    """Premise p1 by W1: pair 1 settled in round 1, pair 2 in round 2 against the author, pair 3 no gold,
    pair 4 still in round 2, pair 5 never validated. Validators W2, W3 (round 1), W4 (2), W5 (3)."""
    premise = "Budi membeli tiga buku di Jakarta kemarin."
    votes = {
        1: ("entailment", ["entailment", "entailment"]),
        2: ("neutral", ["contradiction", "contradiction", "contradiction"]),
        3: ("neutral", ["entailment", "contradiction", "neutral", "entailment"]),
        4: ("contradiction", ["contradiction", "neutral"]),
        5: ("entailment", []),
    }
    items, judgments, gold = [], [], {}
    for item_id, (author, labels) in votes.items():
        record = item(
            item_id,
            premise=premise,
            hypothesis=f"Budi membeli buku nomor {item_id}.",
            label=author,
            unit_id=1,
            judging_round=1 if labels else 0,
            seconds=120.0,
            slot=item_id - 1,
        )
        own = [
            JudgmentRecord(
                10 * item_id + k, item_id, k + 2, f"W{k + 2}", (1, 1, 2, 3)[k], {"label": label}, {}, "", 10.0
            )
            for k, label in enumerate(labels)
        ]
        if item_id == 4:  # round 1 done, round 2 planned and not answered yet
            record = item(
                4, premise=premise, hypothesis="Budi membeli buku nomor 4.", label=author, unit_id=1, judging_round=2
            )
        items.append(record)
        judgments += own
        if labels:
            gold[item_id] = decide(record, own)
    annotators = tuple(AnnotatorInfo(user_id, f"W{user_id}", "") for user_id in range(1, 6))
    return ReportRows({"annotator_type": "lay"}, 7, tuple(items), tuple(judgments), gold, annotators)


def test_hand_case_rounds_and_outcomes():
    report = report_sections(_hand_rows(), artefacts_too=False)

    assert (report["pairs"], report["validated"]) == (5, 4)
    assert report["rounds"] == {"1": 4, "2": 3, "3": 1}
    assert report["gold_after_round"] == {"1": 1, "2": 2, "3": 2}
    # settled: 3 + 4 + 5 labels; pending pair 4: author + 2 so far
    assert report["annotations_needed"] == 3 + 4 + 5 + 3
    assert report["annotations_mnli"] == 20
    assert (report["gold"], report["no_gold"], report["pending"], report["gold_equals_author"]) == (2, 1, 1, 1)
    assert report["splits"]["train"] == 2  # the no-gold lay pair and the pair never validated
    assert report["splits"]["pending"] == 1
    assert report["splits"]["dev"] + report["splits"]["test_lay"] == 2
    agreement = report["agreement"]
    assert agreement["individual_equals_gold"] == (3 + 3) / (3 + 4)  # pair 1: 3 of 3; pair 2: 3 of 4
    assert agreement["individual_equals_author"] == (2 + 0 + 1 + 1) / (2 + 3 + 4 + 2)
    assert agreement["gold_differs_from_author"] == 1 / 4


def test_hand_case_people():
    report = report_sections(_hand_rows(), artefacts_too=False)

    writer = report["writers"][0]
    assert writer["code"] == "W1"
    assert (writer["pairs"], writer["premises"], writer["validated"], writer["gold"], writer["no_gold"]) == (
        5,
        1,
        4,
        2,
        1,
    )
    assert writer["gold_equals_own_label"] == 0.5
    assert (writer["seconds"], writer["seconds_per_premise"]) == (120.0, 120.0)  # six items, one premise's time
    by_code = {v["code"]: v for v in report["validators"]}
    assert [v["code"] for v in report["validators"]] == ["W2", "W3", "W4", "W5"]
    # W2 labelled pairs 1-4 (entailment, contradiction, entailment, contradiction); gold on 1 and 2
    assert (by_code["W2"]["labels"], by_code["W2"]["on_gold_pairs"], by_code["W2"]["equals_gold"]) == (4, 2, 1.0)
    assert by_code["W2"]["equals_author"] == 2 / 4
    assert by_code["W5"]["by_round"] == {"1": 0, "2": 0, "3": 1}
    assert (by_code["W3"]["seconds"], by_code["W3"]["seconds_per_label"]) == (40.0, 10.0)


def test_an_empty_project_reports_zeros():
    report = report_sections(ReportRows({}, 1, (), (), {}, ()))

    assert report["rounds"] == {"1": 0, "2": 0, "3": 0}
    assert (report["annotations_needed"], report["saving_percent"], report["gold"]) == (0, 0.0, 0)
    assert report["corpus"] == {}
    assert report["artefacts"]["hypothesis_only"] is None
    assert report["agreement"]["per_round"]["1"]["fleiss_kappa"] is None


def test_rows_not_yet_approved_are_not_pairs():
    rows = ReportRows(
        {},
        1,
        (item(1, premise="A b.", hypothesis="A.", label="e", status="submitted"),),
        (),
        {1: GoldInfo(1, "pending", "", {})},
        (),
    )

    assert report_sections(rows, artefacts_too=False)["pairs"] == 0


def test_report_template_renders_the_tables_and_pictures():
    from django.template.loader import render_to_string

    report = report_sections(_hand_rows())

    html = render_to_string(
        "annotation/task_types/nli/report.html",
        {"report": {"project": "p", **report}, "project": {"slug": "p"}, "task_type": get_task_type("nli")},
    )

    assert '<tr id="nli-round-2">' in html
    assert '<td class="pairs">3</td>' in html
    # round 2's bar: 3 of the 4 pairs of round 1, on 240 pixels
    assert '<rect x="0" y="1" width="180" height="12" fill="#4c78a8"></rect>' in html
    assert '<td id="nli-outcomes">2 / 1 / 1</td>' in html
    assert 'id="nli-corpus-train"' in html and 'id="nli-writer-0"' in html and 'id="nli-validator-3"' in html
    assert 'href="/p/p/report.json"' in html
    assert "<script" not in html and "style=" not in html  # the CSP allows neither inline


def test_report_template_names_splits_and_labels_in_the_page_language():
    from django.template.loader import render_to_string

    report = report_sections(_hand_rows())

    with translation.override("ar"):
        html = render_to_string(
            "annotation/task_types/nli/report.html",
            {"report": {"project": "p", **report}, "project": {"slug": "p"}, "task_type": get_task_type("nli")},
        )

    assert '<tr id="nli-corpus-dev">\n          <th scope="row">تطوير</th>' in html
    assert '<tr id="nli-overlap-train-neutral">\n            <th scope="row">تدريب</th><td>محايد</td>' in html
    assert '<tr id="nli-pmi-contradiction"><th scope="row">تناقض</th>' in html
    assert list(report["corpus"]) == ["train", "dev"]  # the report's keys stay codes


def test_unknown_tags_are_not_counted():
    rows = ReportRows(
        {},
        1,
        (
            item(1, premise="A b.", hypothesis="A.", label="entailment", payload={"tags": ["NEG", "BOGUS", "NEG"]}),
            item(2, premise="A b.", hypothesis="B.", label="neutral", payload={"tags": ["NUM"]}),
        ),
        (),
        {},
        (),
    )

    phenomena = report_sections(rows, artefacts_too=False)["phenomena"]

    assert phenomena == {"NEG": {"total": 1, "e": 1, "c": 0, "n": 0}, "NUM": {"total": 1, "e": 0, "c": 0, "n": 1}}
