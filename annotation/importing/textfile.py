"""The text of an import file, line by line: strict UTF-8, guarded JSON lines and strict CSV rows.

Every importer reads through these, so a file is refused the same way whatever its format, always with
the line: the first line that is not UTF-8 refuses the file once (a UTF-16 file is one message, not
one per line); a JSON line nested too deeply or holding a number Python won't read is a clear refusal,
not a RecursionError; a CSV quote that is never closed refuses the file with the line of the row where
it opened, instead of swallowing the rows after it. Lines are read one at a time: memory does not grow
with the file.
"""

from __future__ import annotations

import csv
import json
import math
from collections.abc import Iterator
from typing import Any

from django.utils.translation import gettext

from annotation import limits
from annotation.importing.records import BinaryStream, ImportFileError

# Deeper than any row of the formats' files (the deepest nests three levels).
MAX_DEPTH = 16


class NotJson(ValueError):
    """A line that is not one JSON value. str() is "not JSON: <why>" (how a list of refused lines says
    it); `detail` is the why alone ("Expecting value, column 3", "nested too deeply")."""

    def __init__(self, detail: str, shown: str | None = None) -> None:
        super().__init__(gettext("not JSON: %(why)s") % {"why": shown or detail})
        self.detail = detail


class NotFinite(Exception):  # noqa: N818 - not a ValueError: json's "number too long" is one
    """A number JSON can spell but no database column holds (NaN, Infinity, 1e400)."""


def _constant(name: str) -> float:
    raise NotFinite(name)


def _float(text: str) -> float:
    value = float(text)
    if math.isinf(value):
        raise NotFinite(text[:50])
    return value


# PostgreSQL's jsonb has no NaN or Infinity: such a number refuses the row here, not the COPY later.
DECODER = json.JSONDecoder(parse_constant=_constant, parse_float=_float)


def json_line(text: str) -> Any:
    """The JSON value of one line, or NotJson with the reason."""
    try:
        return DECODER.decode(text)
    except NotFinite as exc:
        raise NotJson(gettext("%(number)s is not a finite number") % {"number": exc}) from None
    except json.JSONDecodeError as exc:
        values = {"reason": exc.msg, "column": exc.colno}
        raise NotJson(
            gettext("%(reason)s, column %(column)d") % values, gettext("%(reason)s (column %(column)d)") % values
        ) from None
    except RecursionError:
        # json's C scanner refuses deep nesting by raising RecursionError itself, before any stack runs out.
        raise NotJson(gettext("nested too deeply")) from None
    except ValueError:  # Python refuses integers of more than 4,300 digits
        raise NotJson(gettext("a number has more than 4,300 digits")) from None


def row_problem(row: Any) -> tuple[str, str] | None:
    """(the file's field, what is wrong) for the first value of a decoded row that no text column can
    hold (NUL, a lone surrogate) or that nests deeper than MAX_DEPTH; None for a row that is fine. The
    field is named as the file names it (`input`, `options.text[2]`), before any parser renames it."""
    return next(limits.unstorable_strings(row, max_depth=MAX_DEPTH, root="row"), None)


def check_row(number: int, row: Any, *, in_array: bool = False) -> None:
    """Refuse the file (ImportFileError with the line, or the position in a JSON array, and the field)
    when row_problem finds something."""
    found = row_problem(row)
    if found is not None:
        values = {"number": number, "field": found[0], "problem": found[1]}
        if in_array:
            raise ImportFileError(gettext("Row %(number)d, %(field)s: %(problem)s Nothing was imported.") % values)
        raise ImportFileError(gettext("Line %(number)d, %(field)s: %(problem)s Nothing was imported.") % values)


def not_utf8(line: int) -> ImportFileError:
    return ImportFileError(
        gettext("Line %(line)d is not UTF-8 text (save the file as UTF-8); nothing was imported.") % {"line": line}
    )


def text_lines(stream: BinaryStream) -> Iterator[tuple[int, str]]:
    """(line number from 1, the line's text with its line end), decoded as strict UTF-8, a BOM dropped.

    A byte that is not UTF-8 refuses the file with its line (UTF-8 never uses the newline byte inside a
    character, so splitting the bytes on it first is safe)."""
    for number, raw in enumerate(stream, start=1):
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise not_utf8(number) from None
        if number == 1:
            text = text.removeprefix("\ufeff")
        yield number, text


class _Lines:
    """The decoded lines as csv.reader wants them, remembering how many were read."""

    def __init__(self, stream: BinaryStream) -> None:
        self._lines = text_lines(stream)

    def __iter__(self) -> Iterator[str]:
        return self

    def __next__(self) -> str:
        return next(self._lines)[1]


class CsvRows:
    """The rows of a CSV file with a header line: `header` (the column names, read at once), then, when
    iterated, (line where the row starts, {column: value}) for each row that is not blank.

    Strict: a quote that is not closed before the end, or closed and followed by more text, refuses the
    file naming the line of the row where it opened; so does a row with more cells than the header (a
    quote closed a few lines too late). A row with fewer cells has "" in the missing ones.
    """

    def __init__(self, stream: BinaryStream) -> None:
        self._reader = csv.reader(_Lines(stream), strict=True)
        first = self._next()
        self.header = [name.strip() for name in first[1]] if first is not None else []

    def _next(self) -> tuple[int, list[str]] | None:
        start = self._reader.line_num + 1
        try:
            return start, next(self._reader)
        except StopIteration:
            return None
        except csv.Error as exc:
            if str(exc).startswith("field larger than field limit"):
                raise ImportFileError(
                    gettext("Line %(line)d: a value is longer than %(limit)s characters; nothing was imported.")
                    % {"line": start, "limit": f"{csv.field_size_limit():,}"}
                ) from None
            raise ImportFileError(
                gettext(
                    "Line %(line)d: a quoted value that starts in this row is not closed properly (%(reason)s); "
                    "nothing was imported."
                )
                % {"line": start, "reason": exc}
            ) from None

    def __iter__(self) -> Iterator[tuple[int, dict[str, str]]]:
        header = self.header
        while (read := self._next()) is not None:
            start, cells = read
            if not cells:
                continue
            if len(cells) > len(header):
                raise ImportFileError(
                    gettext(
                        "Line %(line)d: this row has %(cells)d values but the header has %(columns)d columns "
                        "(is a quote closed too late?); nothing was imported."
                    )
                    % {"line": start, "cells": len(cells), "columns": len(header)}
                )
            yield start, dict(zip(header, cells + [""] * (len(header) - len(cells)), strict=True))
