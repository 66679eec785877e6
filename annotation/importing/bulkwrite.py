"""Bulk writing for imports: ids reserved from the table's sequence, rows sent with PostgreSQL COPY.

COPY takes rows as text; formatting them here is several times faster than psycopg's write_row (the
same choice as annotation.services.assignments._insert_authoring). Ids are reserved up front so an
item, its version, its judgments and its gold decision go in one pass, with no RETURNING round trip.
The per-row work is what an import of 100,000 items spends its time on, hence the shortcuts below:
text is escaped only when it holds a character COPY treats specially, and JSON that many rows share
(the same flags, the same answer) is encoded once.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from typing import Any

from django.db import connection
from psycopg.copy import QueuedLibpqWriter

NULL = "\\N"
_ESCAPES = str.maketrans({"\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r"})
_SPECIAL = re.compile(r"[\\\t\n\r]")
# One encoder for every value (json.dumps with arguments builds a new one per call).
_ENCODER = json.JSONEncoder(ensure_ascii=False)


def copy_text(value: str | None) -> str:
    if value is None:
        return NULL
    return value.translate(_ESCAPES) if _SPECIAL.search(value) else value


def copy_json(value: Any) -> str:
    # JSON text never holds a raw tab, newline or carriage return (they are escaped as \t, \n, \r), so
    # only its backslashes need doubling for COPY.
    text = _ENCODER.encode(value)
    return text.replace("\\", "\\\\") if "\\" in text else text


def copy_int(value: int | None) -> str:
    return NULL if value is None else str(value)


class SharedJson:
    """copy_json of values that many rows share as the same object (an importer hands every answer
    "A" the same {"answer": "A"}): encoded once per object. The object is kept with its text, so its
    id can't be reused while cached; the cache is emptied when it grows past `limit`."""

    def __init__(self, limit: int = 4096) -> None:
        self._cache: dict[int, tuple[Any, str]] = {}
        self._limit = limit

    def __call__(self, value: Any) -> str:
        hit = self._cache.get(id(value))
        if hit is not None and hit[0] is value:
            return hit[1]
        text = copy_json(value)
        if len(self._cache) >= self._limit:
            self._cache.clear()
        self._cache[id(value)] = (value, text)
        return text


_SEQUENCES: dict[tuple[str, str], str] = {}


def _sequence(model: Any) -> str:
    key = (model._meta.db_table, model._meta.pk.column)
    if key not in _SEQUENCES:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_get_serial_sequence(%s, %s)", list(key))
            _SEQUENCES[key] = cursor.fetchone()[0]
    return _SEQUENCES[key]


def reserve_ids(model: Any, count: int) -> Sequence[int]:
    """`count` fresh primary keys from the table's sequence (PostgreSQL), in one round trip.

    Usually the sequence hands out one unbroken run: a range, of which only the ends come back. When a
    concurrent insert took numbers in between, the ids are taken again one by one (the run is left
    unused, as a rolled-back insert leaves its ids). The sequence's name is a constant of the query,
    resolved once: looked up per row, it made reserving 25,000 ids seven times slower.
    """
    if count == 0:
        return []
    sequence = _sequence(model)
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT min(id), max(id), count(*) FROM "
            "(SELECT nextval(%s::regclass) AS id FROM generate_series(1, %s)) AS reserved",
            [sequence, count],
        )
        low, high, taken = cursor.fetchone()
        if high - low + 1 == taken:
            return range(low, high + 1)
        cursor.execute("SELECT nextval(%s::regclass) FROM generate_series(1, %s)", [sequence, count])
        return [row[0] for row in cursor.fetchall()]


def copy_lines(model: Any, fields: Sequence[str], lines: Iterable[str], *, chunk: int = 5000) -> None:
    """COPY already formatted lines (tab-separated, newline-terminated) into `model`'s table.

    Lines are sent `chunk` at a time by a writer thread, so the next lines are formatted while the
    server takes the previous ones.
    """
    meta = model._meta
    columns = ", ".join(connection.ops.quote_name(meta.get_field(f).column) for f in fields)
    table = connection.ops.quote_name(meta.db_table)
    with connection.cursor() as cursor:
        raw = cursor.cursor  # psycopg's cursor under Django's wrapper
        with raw.copy(f"COPY {table} ({columns}) FROM STDIN", writer=QueuedLibpqWriter(raw)) as copy:
            buffer: list[str] = []
            for line in lines:
                buffer.append(line)
                if len(buffer) >= chunk:
                    copy.write("".join(buffer))
                    buffer.clear()
            if buffer:
                copy.write("".join(buffer))
