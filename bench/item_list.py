"""The item list page at 1,000,000 items on PostgreSQL (DATABASE_URL): first page, a deep page, a search.

Fills one csqa project (two languages, 50 writers, 20 categories x 50 concepts) with N submitted items
and their versions by COPY (the search's word and trigram indexes are dropped for the fill and built
after, as a bulk load would), then requests the reviewer's item list through Django's test Client (middleware,
session, permission checks, template: the whole page) and reports the 95th percentile of:
- first_page_p95_ms: /p/<slug>/items/ (newest change first, 50 rows, bounded count);
- deep_page_p95_ms: the page 90% of the way down, reached by its keyset cursor (the "Next" links);
- search_p95_ms: ?q=<a word that 1 item in 2,000 contains>, a different word each request (a word
  search, the default; for the record, search_inside_p95_ms: the same with "also inside words");
- copy_rows_per_second: a plain COPY into a scratch table in the same run (the machine's yardstick).
Goal (bench/goals.py): each p95 under 100 ms.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/gotong_bench_items nice .venv/bin/python bench/item_list.py

The database named in DATABASE_URL is dropped and re-created (its name must contain "bench").
Progress goes to stderr; the last stdout line is one JSON object.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import random
import sys
import time
from importlib import import_module
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._common import (  # noqa: E402 - the path above makes the repository importable
    UNUSABLE_PASSWORD,
    copy_rate,
    copy_table,
    database_url_or_exit,
    emit_judged,
    log,
    migrate,
    percentile,
    recreate_database,
    setup_django,
)

SLUG = "bench-items"
WRITERS = 50
CATEGORIES = 20
CONCEPTS_PER_CATEGORY = 50
MARKERS = 2000  # "tanda0000".."tanda1999": each item's question carries one, so a search finds 1 in 2,000
_VOCABULARY = (
    "apa siapa kapan di mana mengapa bagaimana makanan minuman rumah pasar sekolah desa kota hari raya "
    "lebaran ketupat rendang sambal nasi kue teh kopi pagi malam orang anak ibu bapak adat upacara"
)
WORDS = tuple(_VOCABULARY.split())


def fill(*, items: int, seed: int) -> dict:
    """The project, its members and catalog, then `items` items and versions (COPY, one transaction)."""
    from django.contrib.auth import get_user_model
    from django.db import connection, transaction
    from django.utils import timezone

    from annotation.models import Category, Concept, Item, ItemVersion, Membership, ProjectLanguage
    from annotation.services.projects import membership_add, project_create

    rng = random.Random(seed)
    User = get_user_model()
    admin = User.objects.create(username="bench-admin", password=UNUSABLE_PASSWORD)
    project = project_create(
        creator=admin,
        name="Bench items",
        slug=SLUG,
        task_type="csqa",
        languages=[{"code": "id", "name": "Indonesian"}],
    )
    ProjectLanguage.objects.create(project=project, code="su", name="Sundanese", position=1)
    reviewer = User.objects.create(username="bench-reviewer", password=UNUSABLE_PASSWORD)
    membership_add(project=project, user=reviewer, role=Membership.Role.REVIEWER)
    writers = []
    for n in range(WRITERS):
        user = User.objects.create(username=f"bench-w{n:02d}", password=UNUSABLE_PASSWORD)
        membership_add(project=project, user=user, role=Membership.Role.ANNOTATOR, code=f"W{n + 1}")
        writers.append(user.pk)
    categories = Category.objects.bulk_create(
        [Category(project=project, name=f"kategori {c:02d}") for c in range(CATEGORIES)]
    )
    concepts = [
        concept.pk
        for concept in Concept.objects.bulk_create(
            [
                Concept(project=project, category=category, name=f"konsep {c:02d}-{k:02d}")
                for c, category in enumerate(categories)
                for k in range(CONCEPTS_PER_CATEGORY)
            ]
        )
    ]

    item_table, version_table = Item._meta.db_table, ItemVersion._meta.db_table
    base = timezone.now() - datetime.timedelta(seconds=items + 60)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT COALESCE(MAX(id), 0) FROM {item_table}")
        first_id = cursor.fetchone()[0] + 1
        # A bulk load builds the search index once at the end, far faster than row by row.
        cursor.execute("DROP INDEX IF EXISTS itemversion_payload_trgm")
        cursor.execute("DROP INDEX IF EXISTS itemversion_payload_words")

    def item_rows():
        for n in range(items):
            pk = first_id + n
            at = (base + datetime.timedelta(seconds=n)).isoformat()
            language = "su" if rng.random() < 0.2 else "id"
            yield (pk, project.pk, "csqa", "human", "submitted", rng.choice(writers), rng.choice(concepts), 0, 0,
                   pk, "", "", at, at, language)  # fmt: skip

    def version_rows():
        rng2 = random.Random(seed + 1)
        for n in range(items):
            pk = first_id + n
            words = " ".join(rng2.choice(WORDS) for _ in range(rng2.randint(5, 10)))
            question = f"{words.capitalize()} tanda{rng2.randrange(MARKERS):04d}?"
            choices = [rng2.choice(WORDS) + f" {k}" for k in range(5)]
            payload = json.dumps({"question": question, "choices": choices, "answer": "A"}, ensure_ascii=False)
            at = (base + datetime.timedelta(seconds=n)).isoformat()
            yield (pk, pk, 1, payload, rng2.choice(writers), at, "bench", "", at)

    started = time.perf_counter()
    with transaction.atomic():  # items point at versions written after them: deferred foreign keys
        copy_table(
            item_table,
            ["id", "project_id", "task_type", "source", "status", "author_id", "concept_id", "slot",
             "judging_round", "current_version_id", "external_id", "status_reason", "created_at", "updated_at",
             "language"],
            item_rows(),
        )  # fmt: skip
        log(f"items copied ({time.perf_counter() - started:.0f} s)")
        copy_table(
            version_table,
            ["id", "item_id", "number", "payload", "created_by_id", "created_at", "note", "justification",
             "submitted_at"],
            version_rows(),
        )  # fmt: skip
    fill_seconds = time.perf_counter() - started
    log(f"{items:,} items and versions copied in {fill_seconds:.0f} s")
    with connection.cursor() as cursor:
        for table in (item_table, version_table):
            cursor.execute(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), (SELECT MAX(id) FROM {table}))")
        started = time.perf_counter()
        # The indexes exactly as the migration makes them (partial: the versions ready for search).
        for statement in import_module("annotation.migrations.0023_itemversion_search_ready").PARTIAL:
            cursor.execute(statement)
        index_seconds = time.perf_counter() - started
        log(f"trigram and word indexes built in {index_seconds:.0f} s")
        cursor.execute(f"VACUUM ANALYZE {item_table}")
        cursor.execute(f"VACUUM ANALYZE {version_table}")
    return {
        "reviewer": reviewer,
        "fill_seconds": round(fill_seconds, 1),
        "index_seconds": round(index_seconds, 1),
        "first_id": first_id,
        "base": base,
    }


def reused(*, items: int) -> dict:
    """An earlier run's project, checked to hold `items` items (the fill figures are that run's)."""
    from django.contrib.auth import get_user_model

    from annotation.models import Item

    found = Item.objects.filter(project__slug=SLUG).count()
    if found != items:
        raise SystemExit(f"--reuse: {SLUG} holds {found:,} items, not {items:,}; run without --reuse")
    log(f"reusing {found:,} items")
    reviewer = get_user_model().objects.get(username="bench-reviewer")
    return {"reviewer": reviewer, "fill_seconds": None, "index_seconds": None, "first_id": None}


def measure(*, reviewer, items: int, first_id: int, requests: int, seed: int) -> dict:
    from django.test import Client

    from annotation.models import Item
    from annotation.selectors.items import item_list_cursor

    client = Client()
    client.force_login(reviewer)
    url = f"/p/{SLUG}/items/"
    rng = random.Random(seed)

    def timed(params: dict, *, rows: bool = True) -> float:
        started = time.perf_counter()
        response = client.get(url, params)
        elapsed = (time.perf_counter() - started) * 1000
        if response.status_code != 200 or (rows and b'<tr id="item-' not in response.content):
            raise SystemExit(f"{url} {params} answered {response.status_code} without rows")
        return elapsed

    # The deep page: the one after the row 90% of the way down (newest first), as its "Next" link says.
    deep_pk, deep_at = (
        Item.objects.filter(project__slug=SLUG)
        .order_by("-updated_at", "-id")
        .values_list("pk", "updated_at")[int(items * 0.9)]
    )
    deep = {"page": int(items * 0.9) // 50 + 2, "after": item_list_cursor(deep_pk, deep_at)}
    for params in ({}, deep, {"q": "tanda0001"}):  # warm the caches and the connection
        for _ in range(3):
            timed(params)
    first = sorted(timed({}) for _ in range(requests))
    deeps = sorted(timed(deep) for _ in range(requests))
    searches = sorted(timed({"q": f"tanda{rng.randrange(MARKERS):04d}"}) for _ in range(requests))
    # For the record (no goal): a search with a filter, and a search inside words.
    filtered = sorted(
        timed({"q": f"tanda{rng.randrange(MARKERS):04d}", "language": "su"}, rows=False) for _ in range(20)
    )
    inside = sorted(timed({"q": f"tanda{rng.randrange(MARKERS):04d}", "inside": "1"}, rows=False) for _ in range(20))
    return {
        "first_page_p95_ms": round(percentile(first, 95), 1),
        "deep_page_p95_ms": round(percentile(deeps, 95), 1),
        "search_p95_ms": round(percentile(searches, 95), 1),
        "first_page_median_ms": round(percentile(first, 50), 1),
        "deep_page_median_ms": round(percentile(deeps, 50), 1),
        "search_median_ms": round(percentile(searches, 50), 1),
        "search_language_p95_ms": round(percentile(filtered, 95), 1),
        "search_inside_p95_ms": round(percentile(inside, 95), 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--items", type=int, default=1_000_000)
    parser.add_argument("--requests", type=int, default=60, help="timed requests per page kind")
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument(
        "--reuse", action="store_true", help="measure the items an earlier run left (same --items), without a new fill"
    )
    args = parser.parse_args()
    url = database_url_or_exit()
    if not args.reuse:
        recreate_database(url)
    setup_django()
    migrate()
    rate = copy_rate(min(args.items, 200_000))
    log(f"plain COPY: {rate:,.0f} rows/s")
    filled = reused(items=args.items) if args.reuse else fill(items=args.items, seed=args.seed)
    result = measure(
        reviewer=filled["reviewer"],
        items=args.items,
        first_id=filled["first_id"],
        requests=args.requests,
        seed=args.seed,
    )
    result.update(
        rows=args.items,
        copy_rows_per_second=round(rate),
        fill_seconds=filled["fill_seconds"],
        index_seconds=filled["index_seconds"],
        # The machine's load while measuring (other processes share its cores): read the figures with it.
        load_average_1min=round(os.getloadavg()[0], 2),
    )
    emit_judged("item_list", result)


if __name__ == "__main__":
    main()
