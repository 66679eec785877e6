"""Reading an id-csqa file: JSON nested too deeply or text a database can't hold makes it unreadable."""

import json

import pytest

from annotation.task_types.csqa.importers import CsqaFileError, load_records


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"[" * 100_000 + b"]" * 100_000, "The file is not valid JSON (nested too deeply); nothing was imported."),
        (b"{}\n" + b"[" * 100_000, "Line 2 is not valid JSON (nested too deeply); nothing was imported."),
        (
            b'[{"id": "a"}, {"id": "b", "choices": {"text": ["x", "y\\u0000"]}}]',
            "Row 2, choices.text[1]: Remove the NUL character (\\u0000): text can't contain it. Nothing was imported.",
        ),
        (
            b'{"id": "a"}\n\n{"id": "\\ud83d"}\n',
            "Row 3, id: Remove the unpaired surrogate (\\ud83d): it is not a character. Nothing was imported.",
        ),
        (
            b'["\\u0000"]',
            "Row 1, value: Remove the NUL character (\\u0000): text can't contain it. Nothing was imported.",
        ),
        (
            b'[{"reason": ' + b'{"a": ' * 20 + b"1" + b"}" * 21 + b"]",
            "Row 1, reason.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a: Nested more than 16 levels deep. Nothing was imported.",
        ),
        (
            b"[" + b"9" * 5000 + b"]",
            "The file is not valid JSON (a number has more than 4,300 digits); nothing was imported.",
        ),
        (
            b"{}\n" + b"9" * 5000,
            "Line 2 is not valid JSON (a number has more than 4,300 digits); nothing was imported.",
        ),
    ],
    ids=[
        "nested-array",
        "nested-line",
        "nul",
        "lone-surrogate",
        "nul-top-level",
        "nested-row",
        "long-number",
        "long-number-line",
    ],
)
def test_unreadable_files_are_refused_with_the_row(data, message):
    with pytest.raises(CsqaFileError) as refused:
        load_records(data)

    assert str(refused.value) == message


ROW = {
    "id": "r1",
    "category": "kuliner",
    "question_concept": "rendang",
    "question": "Apa?",
    "choices": {"label": ["A", "B", "C", "D", "E"], "text": ["a", "b", "c", "d", "e"]},
    "reason": {"W1": "karena"},
}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"category": "k" * 201}, "Row 2, category: Use at most 200 characters (this has 201)."),
        ({"question_concept": "c" * 301}, "Row 2, question_concept: Use at most 300 characters (this has 301)."),
        ({"question": "q" * 2001}, "Row 2, question: Use at most 2000 characters (this has 2001)."),
        (
            {"choices": {"label": ["A"], "text": ["a", "o" * 501]}},
            "Row 2, choices.text[1]: Use at most 500 characters (this has 501).",
        ),
        ({"reason": {"W1": "r" * 5001}}, "Row 2, reason.W1: Use at most 5000 characters (this has 5001)."),
    ],
    ids=["category", "concept", "question", "option", "reason"],
)
def test_text_longer_than_its_column_refuses_the_file_with_the_row(change, message):
    data = json.dumps([ROW, {**ROW, "id": "r2", **change}]).encode()

    with pytest.raises(CsqaFileError) as refused:
        load_records(data)

    assert str(refused.value) == f"{message} Nothing was imported."


def test_spaces_around_a_text_do_not_count():
    assert load_records(json.dumps([{**ROW, "category": " " + "k" * 200 + " "}]).encode())[0][0] == 1


def test_a_surrogate_pair_is_a_character():
    assert load_records(b'[{"id": "\\ud83d\\ude00"}]') == [(1, {"id": "\U0001f600"})]
