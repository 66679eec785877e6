"""Item versions enter the search indexes after an import, in the background.

Item search (annotation.selectors.item_search) is answered from two GIN indexes of the versions'
payloads, a word index and a trigram index. Kept row by row, they were more than half of PostgreSQL's
work in a large import (7.5 of 13.4 CPU-seconds for 100,000 items, bench/import_items.py) and the
import waited for them. Both indexes are partial now (WHERE search_ready, migration 0023): the import
engine writes its versions with search_ready false, and after its commit a task marks them ready, a
batch per transaction, which puts them in both indexes. Search stays exact meanwhile: it reads the
waiting versions one by one beside the indexes (a small index of the waiting ones finds them), so an
imported item is found from the moment the import commits, and quickly once the task has run (about as
long as the import took, on a worker). Every other write of a version is indexed as it is saved (the
column's default).

The task is queued when the import commits (in the process, after the commit, without a broker); the
beat schedule also runs it every few minutes, so versions whose message was lost (a broker restart)
wait minutes, not forever. Two runs at once share the work (SKIP LOCKED). SQLite (the demo) has no
such indexes: nothing waits there.
"""

from __future__ import annotations

import logging

from celery import shared_task
from django.db import connection, transaction
from kombu.exceptions import OperationalError as BrokerUnavailable

from annotation.models import ItemVersion

logger = logging.getLogger(__name__)

# Versions marked ready per transaction: a few seconds of work at most, so a worker stopped midway
# loses little and a search meanwhile sees the indexes grow.
BATCH = 5000


def search_index_request() -> None:
    """Index the versions written without the search indexes, once the caller's transaction commits."""
    if connection.vendor == "postgresql":
        transaction.on_commit(_send)


def _send() -> None:
    try:
        search_index_catch_up.delay()
    except BrokerUnavailable:
        # The beat schedule's run picks them up; search reads them directly until then.
        logger.warning("search_index.not_sent", exc_info=True)


def index_waiting_versions(*, batch: int = BATCH) -> int:
    """Put every waiting version into the search indexes, `batch` per transaction; how many were put."""
    if connection.vendor != "postgresql":
        return 0
    table = ItemVersion._meta.db_table
    done = 0
    while True:
        with transaction.atomic(), connection.cursor() as cursor:
            # In id order, as every multi-row lock here; versions another run holds are left to it.
            cursor.execute(
                f"UPDATE {table} SET search_ready = true WHERE id IN (SELECT id FROM {table} "
                "WHERE NOT search_ready ORDER BY id LIMIT %s FOR UPDATE SKIP LOCKED)",
                [batch],
            )
            marked = cursor.rowcount
        done += marked
        if marked < batch:
            return done


@shared_task(name="annotation.search_index_catch_up", acks_late=True, reject_on_worker_lost=True)
def search_index_catch_up() -> int:
    """The versions put into the search indexes (the task of search_index_request and the beat)."""
    return index_waiting_versions()
