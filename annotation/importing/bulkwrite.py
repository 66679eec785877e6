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
from concurrent.futures import Future, ThreadPoolExecutor
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


def copy_statement(model: Any, fields: Sequence[str]) -> str:
    meta = model._meta
    columns = ", ".join(connection.ops.quote_name(meta.get_field(f).column) for f in fields)
    return f"COPY {connection.ops.quote_name(meta.db_table)} ({columns}) FROM STDIN"


class BackgroundCopies:
    """One batch's COPYs sent by a second thread, on this transaction's own connection, while this
    thread reads and formats the next batch.

    An import spends about as much CPU in PostgreSQL (its indexes: the word and trigram GIN indexes of
    item versions alone are a third of the import's server time) as in Python reading the file, and
    done in turn the two add up; on two cores they overlap. Only one statement runs on a connection at
    a time: `wait()` must come before this thread uses the connection again (the engine waits before
    each batch's first query and at the end). A COPY's error comes out of `wait()` as Django's own.
    """

    def __init__(self, *, skip_triggers: bool) -> None:
        connection.ensure_connection()
        self._raw = connection.connection  # psycopg's connection, in this thread's transaction
        self._skip_triggers = skip_triggers
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="import-copy")
        self._pending: Future | None = None

    def submit(self, copies: list[tuple[str, str]]) -> None:
        """(COPY statement, its data: formatted lines) sent in order after what was submitted before."""
        self.wait()
        self._pending = self._executor.submit(self._send, copies)

    def _send(self, copies: list[tuple[str, str]]) -> None:
        with self._raw.cursor() as cursor:
            if self._skip_triggers:
                # Per-row triggers (the foreign-key checks) off, as annotation.foreign_keys does for the
                # engine's own COPYs: references_checked_once checks them once at the end.
                cursor.execute("SET LOCAL session_replication_role = replica")
            for statement, data in copies:
                with cursor.copy(statement) as copy:
                    copy.write(data)
            if self._skip_triggers:
                cursor.execute("SET LOCAL session_replication_role = origin")

    def wait(self) -> None:
        pending, self._pending = self._pending, None
        if pending is not None:
            with connection.wrap_database_errors:
                pending.result()

    def close(self, *, quietly: bool = False) -> None:
        """Wait for what is under way and stop the thread; its error is raised unless `quietly`."""
        try:
            self.wait()
        except Exception:
            if not quietly:
                raise
        finally:
            self._executor.shutdown(wait=True)


def copy_lines(model: Any, fields: Sequence[str], lines: Iterable[str], *, chunk: int = 5000) -> None:
    """COPY already formatted lines (tab-separated, newline-terminated) into `model`'s table.

    Lines are sent `chunk` at a time by a writer thread, so the next lines are formatted while the
    server takes the previous ones.
    """
    with connection.cursor() as cursor:
        raw = cursor.cursor  # psycopg's cursor under Django's wrapper
        with raw.copy(copy_statement(model, fields), writer=QueuedLibpqWriter(raw)) as copy:
            buffer: list[str] = []
            for line in lines:
                buffer.append(line)
                if len(buffer) >= chunk:
                    copy.write("".join(buffer))
                    buffer.clear()
            if buffer:
                copy.write("".join(buffer))
