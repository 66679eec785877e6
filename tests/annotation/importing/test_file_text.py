"""Every import format takes every row or refuses the file with the line: an unterminated quote in the
middle of a file (it used to swallow the rows after it), a byte that is not UTF-8, a UTF-16 file (one
message, not one per line). Nothing is written when a file is refused."""

from __future__ import annotations

import csv
import io

import pytest
from django.core.management import CommandError, call_command

from annotation.errors import InvalidInput
from annotation.importing.records import ImportFileError
from annotation.importing.textfile import CsvRows
from annotation.services.imports import items_import
from tests.annotation.importing.samples import SAMPLES
from tests.api.conftest import db_state

pytestmark = pytest.mark.django_db

NOT_UTF8 = "Line {line} is not UTF-8 text (save the file as UTF-8); nothing was imported."


def _csv(rows: list[dict]) -> bytes:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(rows[0]))
    writer.writeheader()
    writer.writerows(rows)
    return out.getvalue().encode()


# Every format as a file of 401 rows, in each layout it reads (the preference formats also read CSV).
LAYOUTS = [(name, sample.layout) for name, sample in SAMPLES.items()]
LAYOUTS += [("indopref", "csv"), ("preference-prompts", "csv")]


def _file(format_name: str, layout: str, count: int = 401) -> tuple[bytes, int]:
    """(the file, the line of its middle row)."""
    rows = SAMPLES[format_name].rows(count)
    if layout == "csv":
        rows = [{k: v if isinstance(v, str) else str(v) for k, v in r.items() if k != "responses"} for r in rows]
        return _csv(rows), count // 2 + 1 + 1  # the header is line 1
    return SAMPLES[format_name].file(rows), count // 2 + 1


def _refused(format_name: str, data: bytes) -> str:
    before = db_state()
    with pytest.raises(InvalidInput) as refused:
        items_import(path_or_bytes=data, project_slug="broken", format=format_name, language="id")
    assert db_state() == before
    return refused.value.message


@pytest.mark.parametrize(("format_name", "layout"), LAYOUTS)
def test_an_unterminated_quote_in_the_middle_refuses_the_file_with_its_line(format_name, layout):
    data, line = _file(format_name, layout)
    lines = data.split(b"\n")
    # The middle row's first value loses its closing quote (CSV: opens a quote that never closes).
    if layout == "csv":
        lines[line - 1] = b'"' + lines[line - 1]
    else:
        lines[line - 1] = lines[line - 1].replace(b'",', b",", 1)

    message = _refused(format_name, b"\n".join(lines))

    if layout == "csv":
        # kalahi's prompts are quoted (they hold newlines): the stray quote ends at the next one instead.
        reason = "',' expected after '\"'" if format_name == "kalahi" else "unexpected end of data"
        assert message == (
            f"Line {line}: a quoted value that starts in this row is not closed properly ({reason}); "
            "nothing was imported."
        )
    else:
        assert f"line {line}" in message.casefold()
        assert "not JSON" in message or "not valid JSON" in message


@pytest.mark.parametrize(("format_name", "layout"), LAYOUTS)
def test_a_byte_that_is_not_utf8_in_the_middle_refuses_the_file_with_its_line(format_name, layout):
    data, line = _file(format_name, layout)
    lines = data.split(b"\n")
    lines[line - 1] = lines[line - 1][:5] + b"\xff" + lines[line - 1][5:]

    assert _refused(format_name, b"\n".join(lines)) == NOT_UTF8.format(line=line)


@pytest.mark.parametrize(("format_name", "layout"), LAYOUTS)
def test_a_utf16_file_is_one_message(format_name, layout):
    data, _ = _file(format_name, layout, count=50)

    assert _refused(format_name, data.decode().encode("utf-16")) == NOT_UTF8.format(line=1)


def test_the_command_names_the_line_of_an_unterminated_quote(tmp_path):
    rows = [{"id": f"p{n}", "category": "c", "prompt": f"prompt {n}", "input": ""} for n in range(1, 402)]
    lines = _csv(rows).split(b"\n")
    lines[201] = lines[201].replace(b"prompt 201", b'"prompt 201')
    path = tmp_path / "prompts.csv"
    path.write_bytes(b"\n".join(lines))
    before = db_state()

    with pytest.raises(CommandError) as refused:
        call_command("import_items", str(path), "--project", "prompts", "--format", "preference-prompts")

    assert str(refused.value) == (
        "Line 202: a quoted value that starts in this row is not closed properly (unexpected end of data); "
        "nothing was imported."
    )
    assert db_state() == before


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('a,b\n1,"x\n2,y\n', "Line 2: a quoted value that starts in this row is not closed properly"),
        ('a,b\n1,2\n3,"x\n4,y",z\n5,6\n', "Line 3: this row has 3 values but the header has 2 columns"),
        ('a,b\n1,"x"y\n', "Line 2: a quoted value that starts in this row is not closed properly"),
    ],
)
def test_csv_rows_refuse_a_misplaced_quote_at_the_line_it_opened(text, expected):
    with pytest.raises(ImportFileError) as refused:
        list(CsvRows(io.BytesIO(text.encode())))

    assert str(refused.value).startswith(expected)


def test_csv_rows_keep_a_quoted_value_over_several_lines_and_number_rows_by_their_first_line():
    text = 'a,b\n1,"x\ny"\n2,z\n\n3\n'

    rows = list(CsvRows(io.BytesIO(("\ufeff" + text).encode())))

    assert rows == [(2, {"a": "1", "b": "x\ny"}), (4, {"a": "2", "b": "z"}), (6, {"a": "3", "b": ""})]
