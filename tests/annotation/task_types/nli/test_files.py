"""Parsing IndoNLI and MNLI/SNLI-style JSON Lines: odd values kept and reported, broken lines refused."""

import json

import pytest

from annotation.importing.records import ImportFileError
from annotation.task_types.nli.files import (
    IndoNliRow,
    MnliRow,
    Note,
    RefusedLine,
    read_diagnostic,
    read_indonli,
    read_mnli,
)


def _jsonl(*records) -> bytes:
    return "\n".join(r if isinstance(r, str) else json.dumps(r, ensure_ascii=False) for r in records).encode() + b"\n"


GOOD = {
    "pair_id": 119373,
    "premise_id": 11937,
    "premise": "Manuskrip itu berisi tiga catatan.",
    "hypothesis": "Manuskrip itu tidak berisi catatan.",
    "label": "c",
    "data_split": "dev",
    "annotator_type": "lay",
    "sentence_size": "single",
}


def test_indonli_rows_odd_values_and_broken_lines():
    data = (
        b"\xef\xbb\xbf"
        + _jsonl(
            GOOD,
            {**GOOD, "pair_id": 2, "label": "Entailment", "author_label": "n", "annotation_round": 2},
            {**GOOD, "pair_id": 3, "label": "maybe", "sentence_size": "paragraph", "data_split": "validation"},
            '{"pair_id": 4, "premise": ',
            "[1, 2]",
            {**GOOD, "pair_id": 5, "hypothesis": "  "},
            "",
            {**GOOD, "pair_id": 6, "annotation_round": 7, "label": "-"},
        )
        + b'{"pair_id": 7, "premise": "caf\xe9"}\n'
    )

    results = []
    # The first line that is not UTF-8 refuses the file, once (a UTF-16 file is one message).
    with pytest.raises(ImportFileError) as not_utf8:
        results.extend(read_indonli(data))

    first, second, odd, broken, array, no_hypothesis, unrounded = results
    assert first == IndoNliRow(
        line=1,
        pair_id="119373",
        premise_id="11937",
        premise=GOOD["premise"],
        hypothesis=GOOD["hypothesis"],
        label="contradiction",
        raw_label="c",
        data_split="dev",
        annotator_type="lay",
        sentence_size="single",
    )
    assert (second.label, second.author_label, second.annotation_round, second.notes) == (
        "entailment",
        "neutral",
        2,
        (),
    )
    assert (odd.line, odd.label, odd.raw_label, odd.sentence_size, odd.data_split) == (
        3,
        None,
        "maybe",
        "paragraph",
        "validation",
    )
    assert [(n.line, n.field, n.value) for n in odd.notes] == [
        (3, "label", "maybe"),
        (3, "data_split", "validation"),
        (3, "sentence_size", "paragraph"),
    ]
    assert isinstance(broken, RefusedLine) and broken.line == 4 and broken.message.startswith("not JSON")
    assert array == RefusedLine(5, "a JSON list, not an object with fields")
    assert no_hypothesis == RefusedLine(6, "no hypothesis text")
    assert unrounded.line == 8  # the blank line 7 is skipped, numbering is the file's
    assert unrounded.notes == (
        Note(8, "label", "-", "label is empty"),
        Note(8, "annotation_round", 7, "annotation_round should be 1, 2 or 3"),
    )
    assert str(not_utf8.value) == "Line 9 is not UTF-8 text (save the file as UTF-8); nothing was imported."


def test_indonli_reader_streams_from_any_line_iterable():
    lines = (json.dumps({**GOOD, "pair_id": i}) for i in range(3))

    reader = read_indonli(lines)

    assert next(reader).pair_id == "0"  # a generator: nothing is read ahead
    assert [row.pair_id for row in reader] == ["1", "2"]


def test_missing_required_fields_are_noted():
    (row,) = read_indonli([json.dumps({"premise": "P satu.", "hypothesis": "H satu."})])

    assert [note.message for note in row.notes] == [
        "label is missing",
        "pair_id is missing",
        "premise_id is missing",
        "data_split is missing",
        "annotator_type is missing",
        "sentence_size is missing",
    ]


def test_mnli_rows():
    data = _jsonl(
        {
            "sentence1": "Anda ingin memukul tombol.",
            "sentence2": "Anda tidak ingin menekan tombol.",
            "gold_label": "neutral",
            "promptid": "20648",
            "pairid": "20648n",
            "genre": "telephone",
            "label1": "neutral",
            "label2": "neutral",
            "label3": "contradiction",
            "label4": "neutral",
            "label5": "neutral",
        },
        {"sentence1": "A.", "sentence2": "B.", "gold_label": "-", "pairID": "9e", "label1": "e", "label2": "hidden"},
        {
            "sentence1": "A.",
            "sentence2": "B.",
            "gold_label": "entailment",
            "pairID": "10",
            "annotator_labels": ["entailment", "neutral"],
        },
        {"sentence1": "A.", "gold_label": "entailment"},
        "not json",
    )

    first, odd, snli, no_hypothesis, broken = read_mnli(data)

    assert first == MnliRow(
        line=1,
        pair_id="20648n",
        prompt_id="20648",
        premise="Anda ingin memukul tombol.",
        hypothesis="Anda tidak ingin menekan tombol.",
        genre="telephone",
        gold_label="neutral",
        raw_gold_label="neutral",
        labels=("neutral", "neutral", "contradiction", "neutral", "neutral"),
    )
    assert (odd.gold_label, odd.labels) == (None, ("entailment", None, None, None, None))
    assert [(n.line, n.field, n.value) for n in odd.notes] == [(2, "label2", "hidden")]
    assert (snli.labels, snli.notes) == (("entailment", "neutral"), ())
    assert no_hypothesis == RefusedLine(4, "no sentence2 text")
    assert broken.line == 5


def test_diagnostic_array_with_tags(tmp_path):
    path = tmp_path / "diagnostic.jsonl"
    items = [
        {"pair_id": 1, "label": "e", "premise": "P.", "hypothesis": "H.", "inference_phenomena": ["MORPH", "SEMLEX"]},
        {"pair_id": 2, "label": "c", "premise": "P.", "hypothesis": "H.", "inference_phenomena": ["NEG", "SARCASM"]},
        "oops",
    ]
    path.write_text(json.dumps(items), encoding="utf-8")

    first, second, third = read_diagnostic(path)

    assert (first.phenomena, first.notes) == (("MORPH", "LEXSEM"), ())
    assert second.phenomena == ("NEG",)
    assert [(n.line, n.field, n.value) for n in second.notes] == [(2, "inference_phenomena", "SARCASM")]
    assert third == RefusedLine(3, "item 3 is a JSON str, not an object")
