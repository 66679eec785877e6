"""Read a JSON array or JSON Lines file as a stream of (row number, value), in constant memory.

A release may be one JSON array of 100 MB; json.load would hold the text and every row at once. Here
the bytes are decoded in chunks and each element is decoded on its own (json's C scanner, so the speed
is json.loads's); only the current chunk and the current row are held. Row numbers are positions in
the array (from 1) or line numbers for JSON Lines. A file that can't be read raises ImportFileError
with the same words json.loads would give (line and column in the whole file).
"""

from __future__ import annotations

import codecs
import json
from collections.abc import Iterator
from typing import Any

from django.utils.translation import gettext

from annotation.importing.records import BinaryStream, ImportFileError
from annotation.importing.textfile import DECODER, NotFinite, NotJson, json_line, not_utf8

CHUNK = 1 << 20  # bytes read at a time
_WHITESPACE = " \t\n\r"


class _Text:
    """UTF-8 text of a binary stream, chunk by chunk (the BOM of a spreadsheet export dropped)."""

    def __init__(self, stream: BinaryStream) -> None:
        self._stream = stream
        self._decoder = codecs.getincrementaldecoder("utf-8")()
        self._newlines = 0  # in the bytes decoded so far: the line of a bad byte
        self._first = True
        self.eof = False

    def read(self, size: int | None = None) -> str:
        """The next piece of text ("" only at the end), of about `size` bytes (CHUNK by default)."""
        while not self.eof:
            data = self._stream.read(size or CHUNK)
            self.eof = not data
            # Bytes held back from the last chunk are part of one character: never a newline.
            pending = self._decoder.getstate()[0]
            try:
                text = self._decoder.decode(data, final=self.eof)
            except UnicodeDecodeError as exc:
                before = (pending + data)[: exc.start].count(b"\n")
                raise not_utf8(self._newlines + before + 1) from None
            self._newlines += data.count(b"\n")
            if self._first and text:
                text = text.lstrip("\ufeff")
                self._first = not text
            if text:
                return text
        return ""


def json_rows(stream: BinaryStream) -> Iterator[tuple[int, Any]]:
    """(row number, decoded value) for a JSON array or JSON Lines file; ImportFileError if unreadable."""
    for number, value, _ in json_rows_text(stream):
        yield number, value


def json_rows_text(stream: BinaryStream) -> Iterator[tuple[int, Any, str]]:
    """(row number, decoded value, its JSON text): the text lets a caller check at C speed what would
    otherwise mean walking every string of the value (e.g. that no escape spells NUL)."""
    source = _Text(stream)
    start = ""
    while not start.strip():
        piece = source.read()
        if not piece:
            raise ImportFileError("The file is empty; nothing was imported.")
        start += piece
    if start.lstrip().startswith("["):
        yield from _ArrayReader(source, start).rows()
    else:
        yield from _lines(source, start)


def _lines(source: _Text, start: str) -> Iterator[tuple[int, Any, str]]:
    pending, number = start, 0
    while True:
        *lines, pending = pending.split("\n")
        for line in lines:
            number += 1
            if line.strip():
                yield number, _line_value(line, number), line
        more = source.read()
        if not more:
            if pending.strip():
                yield number + 1, _line_value(pending, number + 1), pending
            return
        pending += more


def _line_value(line: str, number: int) -> Any:
    try:
        return json_line(line)
    except NotJson as exc:
        raise ImportFileError(
            gettext("Line %(line)d is not valid JSON (%(detail)s); nothing was imported.")
            % {"line": number, "detail": exc.detail}
        ) from None


class _ArrayReader:
    """The elements of one top-level JSON array, decoded one at a time from a sliding buffer."""

    def __init__(self, source: _Text, start: str) -> None:
        self.source = source
        self.buf = start
        # Where buf[0] is in the file (0-based line, 0-based column), for json's line/column messages.
        self.base_line = 0
        self.base_col = 0
        self.number = 0  # the element being read (from 1)

    def _position(self, pos: int) -> tuple[int, int]:
        newlines = self.buf.count("\n", 0, pos)
        if newlines:
            return self.base_line + newlines + 1, pos - self.buf.rfind("\n", 0, pos)
        return self.base_line + 1, self.base_col + pos + 1

    def _fail(self, msg: str, pos: int) -> ImportFileError:
        line, column = self._position(pos)
        return ImportFileError(
            f"The file is not valid JSON (line {line}, column {column}: {msg}); nothing was imported."
        )

    def _more(self, keep_from: int) -> bool:
        """Drop buf[:keep_from] and append the next text (keep_from becomes index 0); False at the end."""
        consumed = self.buf[:keep_from]
        newlines = consumed.count("\n")
        if newlines:
            self.base_line += newlines
            self.base_col = len(consumed) - consumed.rfind("\n") - 1
        else:
            self.base_col += len(consumed)
        # Read at least as much as is held: a row larger than a chunk is re-decoded a few times, not n².
        piece = self.source.read(max(CHUNK, len(self.buf)))
        self.buf = self.buf[keep_from:] + piece
        return bool(piece)

    def _skip(self, i: int) -> int:
        """Index of the next non-blank character from i (reading more as needed); len(buf) at the end."""
        while True:
            n = len(self.buf)
            while i < n and self.buf[i] in _WHITESPACE:
                i += 1
            if i < n or self.source.eof:
                return i
            self._more(i)
            i = 0

    def rows(self) -> Iterator[tuple[int, Any, str]]:
        i = self._skip(0) + 1  # past "["
        i = self._skip(i)
        if i < len(self.buf) and self.buf[i] == "]":
            self._end(i + 1)
            return
        number = 0
        while True:
            number += 1
            self.number = number
            value, end, i = self._element(i)
            yield number, value, self.buf[i:end]
            j = self._skip(end)
            if j >= len(self.buf):
                raise self._fail("Expecting ',' delimiter", j)
            if self.buf[j] == "]":
                self._end(j + 1)
                return
            if self.buf[j] != ",":
                raise self._fail("Expecting ',' delimiter", j)
            i = self._skip(j + 1)

    def _element(self, i: int) -> tuple[Any, int, int]:
        """(value, index after it, its start) of the element at i, reading more until it is whole."""
        while True:
            try:
                value, end = DECODER.raw_decode(self.buf, i)
            except NotFinite as exc:
                raise ImportFileError(
                    gettext("Row %(row)d is not valid JSON (%(number)s is not a finite number); nothing was imported.")
                    % {"row": self.number, "number": exc}
                ) from None
            except RecursionError:
                raise ImportFileError("The file is not valid JSON (nested too deeply); nothing was imported.") from None
            except json.JSONDecodeError as exc:
                if not self.source.eof:
                    self._more(i)
                    i = 0
                    continue
                raise self._fail(exc.msg, exc.pos) from None
            except ValueError:
                if not self.source.eof:
                    self._more(i)
                    i = 0
                    continue
                raise ImportFileError(
                    "The file is not valid JSON (a number has more than 4,300 digits); nothing was imported."
                ) from None
            # A number (or anything) that ends where the buffer ends may go on in the next chunk.
            if end >= len(self.buf) and not self.source.eof:
                self._more(i)
                i = 0
                continue
            return value, end, i

    def _end(self, i: int) -> None:
        j = self._skip(i)
        if j < len(self.buf):
            raise self._fail("Extra data", j)
