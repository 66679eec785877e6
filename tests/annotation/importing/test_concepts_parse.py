"""Parsing concept files: what Python's readers choke on, or a database can't store, is a line error."""

import pytest

from annotation import limits
from annotation.importing import concepts
from annotation.importing.concepts import parse_concepts


def test_a_file_of_junk_stops_after_max_errors():
    text = "category,concept\n" + ",x\n" * 1000

    parsed = parse_concepts(text, "csv", {"id"})

    assert parsed.rows == []
    assert parsed.errors[:2] == ["Line 2: the category is empty.", "Line 3: the category is empty."]
    assert len(parsed.errors) == concepts.MAX_ERRORS + 1
    assert parsed.errors[-1] == f"Stopped reading after {concepts.MAX_ERRORS} problems."


def test_a_file_of_more_rows_than_allowed_is_refused(monkeypatch):
    monkeypatch.setattr(limits, "CONCEPT_ROWS", 3)
    text = "category,concept\n" + "".join(f"kuliner,k{n}\n" for n in range(5))

    parsed = parse_concepts(text, "csv", {"id"})

    assert parsed.errors == ["Line 5: a file may have at most 3 rows; split it."]


def test_a_header_cell_over_the_csv_field_limit_is_a_line_error():
    parsed = parse_concepts("category," + "c" * 131_073 + "\n", "csv", {"id"})

    assert parsed.errors == ["Line 1: a cell is longer than 131,072 characters (a concept may have 300)."]


@pytest.mark.parametrize(
    ("line", "error"),
    [
        ('{"category": true, "concept": "rendang"}', "Line 1: category must be text."),
        ('{"category": "kuliner", "concept": 1945}', None),
        ('{"category": "kuliner", "concept": "c", "translations": {"\\u0000": "x"}}', "unknown language"),
        ('{"category": "kuliner", "concept": "c", "category_translations": {"id": "k\\u0000"}}', "category_id"),
    ],
)
def test_jsonl_values_must_be_storable_text(line, error):
    parsed = parse_concepts(line, "jsonl", {"id"})

    if error is None:
        assert (parsed.errors, [r.concept for r in parsed.rows]) == ([], ["1945"])
    else:
        assert len(parsed.errors) == 1 and error in parsed.errors[0]
        assert "\x00" not in parsed.errors[0]
