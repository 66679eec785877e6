"""NLI export hooks: released IndoNLI fields, splits, Parquet schema, data card."""

import json

import pyarrow as pa

from annotation.task_types.base import ExportRecord, GoldInfo, JudgmentRecord
from annotation.task_types.nli.export import (
    EXPORT_FIELDS,
    datacard_text,
    export_row,
    export_split,
    parquet_schema,
)
from annotation.task_types.nli.files import read_indonli
from tests.annotation.task_types.nli.data import data_file
from tests.annotation.task_types.nli.records import export_records, indonli_rows, item, mnli_rows

RELEASED = [
    "pair_id",
    "premise_id",
    "premise",
    "hypothesis",
    "label",
    "author_label",
    "annotation_round",
    "data_split",
    "annotator_type",
    "sentence_size",
    "source",
    "topics",
]


def _record(outcome, *, settings, judgments=(), label="neutral", round_=2, judging_round=1):
    record = item(
        5,
        premise="Budi membeli tiga buku.",
        hypothesis="Budi membeli buku.",
        label="entailment",
        premise_id="p9",
        unit_data={"source": "news", "topic": "ekonomi"},
        judging_round=judging_round,
    )
    gold = GoldInfo(5, outcome, "", {"label": label if outcome == "gold" else None, "round": round_})
    return ExportRecord(record, tuple(judgments), gold, settings, 11)


def test_fields_are_the_released_ones_plus_labels_by_round():
    assert list(EXPORT_FIELDS) == [*RELEASED, "labels_round_1", "labels_round_2", "labels_round_3"]
    assert parquet_schema().names == list(EXPORT_FIELDS)


def test_row_of_a_pair_settled_in_round_2():
    judgments = [
        JudgmentRecord(1, 5, 2, "W2", 1, {"label": "neutral"}, {}),
        JudgmentRecord(2, 5, 3, "W3", 1, {"label": "contradiction"}, {}),
        JudgmentRecord(3, 5, 4, "W4", 2, {"label": "neutral"}, {}),
    ]
    record = _record("gold", settings={"annotator_type": "expert"}, judgments=judgments)

    row = export_row(record)

    assert row == {
        "pair_id": "5",
        "premise_id": "p9",
        "premise": "Budi membeli tiga buku.",
        "hypothesis": "Budi membeli buku.",
        "label": "n",
        "author_label": "e",
        "annotation_round": 2,
        "data_split": "test",
        "annotator_type": "expert",
        "sentence_size": "single",
        "source": "news",
        "topics": ["ekonomi"],
        "labels_round_1": ["n", "c"],
        "labels_round_2": ["n"],
        "labels_round_3": [],
    }
    assert export_split(record) == "test_expert"
    assert pa.Table.from_pylist([row], schema=parquet_schema()).num_rows == 1


def test_pairs_outside_the_release_have_no_split():
    assert export_split(_record("no_gold", settings={"annotator_type": "expert"}, round_=3)) == ""
    assert export_split(_record("pending", settings={"annotator_type": "lay"})) == ""
    # approved, never sent to validation (the gold engine still writes a pending decision): train
    assert export_split(_record("pending", settings={"annotator_type": "lay"}, judging_round=0)) == "train"
    lay_no_gold = _record("no_gold", settings={"annotator_type": "lay"}, round_=3)
    assert export_split(lay_no_gold) == "train"
    assert export_row(lay_no_gold)["label"] == "e"  # the author's label (the paper's footnote 5)


def test_exported_dev_reads_back_as_the_release():
    path = data_file("indonli", "val.jsonl")
    rows = [export_row(record) for record in export_records(indonli_rows(path))]
    # the release holds one line twice (pair 104684); Table 4 counts it twice, and so do we here
    released = sorted(read_indonli(path), key=lambda r: int(r.pair_id))

    assert len(rows) == 2197
    assert {export_split(record) for record in export_records(indonli_rows(path))} == {"dev"}
    lines = "\n".join(json.dumps(row, ensure_ascii=False) for row in rows).encode()
    back = list(read_indonli(lines))
    assert [
        (r.pair_id, r.premise_id, r.premise, r.hypothesis, r.label, r.data_split, r.annotator_type, r.sentence_size)
        for r in back
    ] == [
        (r.pair_id, r.premise_id, r.premise, r.hypothesis, r.label, r.data_split, r.annotator_type, r.sentence_size)
        for r in released
    ]
    assert all(not r.notes for r in back)


def test_mnli_export_keeps_the_labels_of_every_round():
    records = export_records(mnli_rows(data_file("mnli-id", "dev.jsonl")))
    with open(data_file("mnli-id", "dev.jsonl"), encoding="utf-8") as handle:
        first = json.loads(next(handle))

    row = export_row(records[0])

    codes = {"entailment": "e", "neutral": "n", "contradiction": "c"}
    assert row["author_label"] == codes[first["label1"]]
    assert row["labels_round_1"] == [codes[first["label2"]], codes[first["label3"]]]
    assert sum(export_split(r) == "train" for r in records) == 40  # the lay pairs without gold


def test_data_card_lists_the_splits_and_the_protocol():
    text = datacard_text(
        {
            "counts": {"test_lay": 2201, "dev": 2197},
            "files": {"dev": "dev.jsonl", "test_lay": "test_lay.jsonl"},
            "labels": {"dev": {"entailment": 807, "contradiction": 749, "neutral": 641}},
        }
    )

    assert "| dev | dev.jsonl | dev | lay | 2197 | entailment 807, contradiction 749, neutral 641 |" in text
    assert "| test_lay | test_lay.jsonl | test | lay | 2201 |  |" in text
    assert text.index("| dev |") < text.index("| test_lay |")  # Table 4's order
    assert "a label chosen by 3 of the 4 (author included) is gold" in text
    assert "- `labels_round_2`:" in text
    assert datacard_text({"counts": {}}).count("No pairs were exported.") == 1
