"""PostgreSQL planner settings for one block of statements, put back as they were when the block ends.

A few large statements are planned better with settings other than the defaults: the report's reads
(more work memory, no JIT, cursors planned for their whole result, parallel workers) and the set-based
gold recompute. SET LOCAL alone would keep them until the caller's transaction ends, so a caller going on
in the same transaction (a recompute inside a larger write, a test) would run its own statements under
them. `local_settings` sets them for the block (set_config with is_local, as SET LOCAL does) and puts back
the values it found, whether the block read or wrote. (A savepoint rolled back at the end would undo
them too, but only for a block that writes nothing, and at one statement more.)
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager

from django.db import connection


@contextmanager
def local_settings(cursor, **settings: str) -> Iterator[None]:
    """The block's statements on `cursor` run with these settings (postgresql.conf names and values).

    Needs a transaction, as SET LOCAL does (the caller's, or a `transaction.atomic()` around the block).
    An error inside leaves them to the rollback that follows it, which undoes them. Other databases
    have no such settings: nothing is run.
    """
    if connection.vendor != "postgresql":
        yield
        return
    names = list(settings)
    cursor.execute("SELECT " + ", ".join(["current_setting(%s)"] * len(names)), names)
    before = dict(zip(names, cursor.fetchone(), strict=True))
    _set(cursor, settings)
    yield
    _set(cursor, before)


def _set(cursor, values: Mapping[str, str]) -> None:
    cursor.execute(
        "SELECT " + ", ".join(["set_config(%s, %s, true)"] * len(values)),
        [part for name, value in values.items() for part in (name, value)],
    )
