"""Parsing id-csqa files: pure, no database."""

import json

import pytest

from annotation.task_types.csqa.importers import CsqaFileError, parse_csqa
from tests.annotation.importing.messy import EXPECTED_ISSUE_COUNTS, EXPECTED_ISSUE_ROWS, messy_bytes, row


def _by_id(parsed):
    return {r.external_id: r for r in parsed.rows}


def test_messy_file_reports_every_oddity_by_row():
    parsed = parse_csqa(messy_bytes())

    issue_rows: dict = {}
    for issue in parsed.issues:
        issue_rows.setdefault(issue.code, set()).add(issue.row)
    assert {code: sorted(rows) for code, rows in issue_rows.items()} == EXPECTED_ISSUE_ROWS
    counts: dict = {}
    for issue in parsed.issues:
        counts[issue.code] = counts.get(issue.code, 0) + 1
    assert counts == EXPECTED_ISSUE_COUNTS
    assert [r.row for r in parsed.rows] == [1, 2, 3, 4, 5, 6, 12]
    assert (parsed.total_rows, parsed.annotators) == (12, ["W1", "W2", "W3", "W4", "W5", "W6"])


def test_unknown_values_stay_unknown_with_their_original_kept():
    rows = _by_id(parse_csqa(messy_bytes()))

    odd = {a.code: a for a in rows["odd-vocab"].answers}
    assert (odd["W2"].uncertain, odd["W2"].raw) == (None, {"answers_uncertainty": "maybe"})
    assert (odd["W3"].uncertain, odd["W3"].raw) == (True, {})
    assert (odd["W4"].question_ambiguous, odd["W4"].raw) == (None, {"question_ambiguity": "sort of"})
    assert (odd["W5"].question_ambiguous, odd["W5"].raw) == (None, {"question_ambiguity": ""})
    empty = {a.code: a for a in rows["empty-flags"].answers}
    assert (empty["W2"].option_ambiguous, empty["W2"].raw) == (None, {"option_ambiguity": []})
    assert (empty["W3"].option_ambiguous, empty["W3"].raw) == (None, {})
    assert (empty["W4"].option_ambiguous, empty["W4"].raw) == (None, {"option_ambiguity": ["clear"] * 4})
    assert empty["W5"].option_ambiguous == [False, None, False, False, False]
    assert empty["W5"].raw == {"option_ambiguity": ["clear", "kinda", "clear", "clear", "clear"]}
    assert empty["W6"].flags() == {"uncertain": False, "question_ambiguous": False, "option_ambiguous": [False] * 5}


def test_author_is_the_one_annotator_missing_everywhere():
    rows = _by_id(parse_csqa(messy_bytes()))

    assert rows["ok-1"].author_code == "W1"
    assert rows["missing-answer"].author_code == "W1"
    assert [a.code for a in rows["missing-answer"].answers] == ["W2", "W4", "W5", "W6"]
    assert rows["two-authors"].author_code is None
    assert [a.code for a in rows["two-authors"].answers] == ["W3", "W4", "W5", "W6"]
    labels = rows["bad-labels"]
    assert (labels.answer_creator, [(a.code, a.answer) for a in labels.answers]) == (
        "",
        [("W3", "C"), ("W4", "A"), ("W5", "A"), ("W6", "A")],
    )
    assert rows["lower-labels"].choices == ["Lebaran", "Natal", "Imlek", "Nyepi", "Waisak"]


def test_messages_say_what_happened():
    issues = {(i.row, i.code): i.message for i in parse_csqa(messy_bytes()).issues}

    assert issues[(5, "author_unknown")] == "W1 and W2 are all missing: the author is unknown."
    assert issues[(6, "bad_answer")] == "W2 answer: 'F' is not one of A-E; this answer is not imported."
    assert issues[(6, "bad_answer_creator")] == "answer_creator: 'Z' is not one of A-E; kept as unknown."
    assert issues[(9, "duplicate_id")] == "The id was already used in row 1; row skipped."
    assert issues[(2, "unknown_uncertainty")] == (
        "W2 uncertainty: 'maybe' is not one of certain, uncertain; kept as unknown."
    )


def test_json_lines_are_read_with_line_numbers():
    text = json.dumps(row("a")) + "\n\n" + json.dumps(row("b", author="W2")) + "\n"

    parsed = parse_csqa(text.encode())

    assert [(r.row, r.external_id, r.author_code) for r in parsed.rows] == [(1, "a", "W1"), (3, "b", "W2")]
    assert parsed.issues == []


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (
            b'[{"id": "x",',
            "The file is not valid JSON (line 1, column 13: Expecting property name enclosed in double quotes); "
            "nothing was imported.",
        ),
        (
            (json.dumps(row("a")) + "\n" + json.dumps(row("b")) + "\n{oops\n").encode(),
            "Line 3 is not valid JSON (Expecting property name enclosed in double quotes, column 2); "
            "nothing was imported.",
        ),
        (b"\xff\xfe[", "Line 1 is not UTF-8 text (save the file as UTF-8); nothing was imported."),
        (
            b'[{"id": "a"},\n{"id": "b\xff"}]',
            "Line 2 is not UTF-8 text (save the file as UTF-8); nothing was imported.",
        ),
        (b"   ", "The file is empty; nothing was imported."),
    ],
)
def test_unreadable_files_are_fatal(data, message):
    with pytest.raises(CsqaFileError) as refused:
        parse_csqa(data)

    assert str(refused.value) == message
