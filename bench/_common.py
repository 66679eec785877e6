"""Shared helpers for the benchmarks in bench/: PostgreSQL-only Django set-up, fast filling, timing.

Each benchmark is a plain script run with the project's virtualenv; it prints progress on stderr and
one JSON object as the last line of stdout.
"""

from __future__ import annotations

import json
import math
import os
import sys
import threading
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from bench.goals import judge

ROOT = Path(__file__).resolve().parent.parent

# One object representing "no password": bench users log in with force_login. Hashing a real password
# per user with Argon2 would take minutes for 1,000 users and measure nothing we care about.
UNUSABLE_PASSWORD = "!bench-user-without-password"


def log(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def emit(result: dict[str, Any]) -> None:
    """The final stdout line, read by scripts."""
    print(json.dumps(result, sort_keys=True), flush=True)


def database_url_or_exit() -> str:
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres://", "postgresql://", "pgsql://")):
        shown = url or "unset (SQLite)"
        sys.exit(
            f"This benchmark needs PostgreSQL: row locks, SKIP LOCKED and COPY are what it measures.\n"
            f"DATABASE_URL is {shown}. Run it as e.g.\n"
            f"  DATABASE_URL=postgres://postgres@127.0.0.1:5432/gotong_bench .venv/bin/python {sys.argv[0]}"
        )
    return url


# A migrated database to copy instead of creating an empty one (bench/run_all.py migrates it once for all
# the benches it runs: migrating took 20 s of each small run's 30).
TEMPLATE_ENV = "GOTONG_BENCH_TEMPLATE"


def recreate_database(url: str) -> None:
    """Drop and create the database named in `url`; refused unless its name says it is a bench database.
    Created as a copy of the database named in GOTONG_BENCH_TEMPLATE when it is set."""
    import psycopg

    parts = urlsplit(url)
    name = parts.path.lstrip("/")
    if "bench" not in name:
        sys.exit(f"--recreate-db refuses to drop {name!r}: only databases whose name contains 'bench'.")
    template = os.environ.get(TEMPLATE_ENV, "")
    admin_url = admin_database_url(url)
    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"' + (f' TEMPLATE "{template}"' if template else ""))
    log(f"recreated database {name}" + (f" from {template}" if template else ""))


def admin_database_url(url: str) -> str:
    """The server's `postgres` database, for creating and dropping others."""
    return urlsplit(url)._replace(path="/postgres").geturl().replace("postgres://", "postgresql://", 1)


def setup_django() -> None:
    """Configure Django for a benchmark: test settings (DEBUG off, any host), persistent connections."""
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")
    # Each client thread keeps its connection, as a web worker would.
    os.environ.setdefault("DB_CONN_MAX_AGE", "3600")
    os.environ.setdefault("REDIS_URL", "")
    import django

    django.setup()


def queue_background_tasks() -> None:
    """Queue Celery tasks to the in-memory broker instead of running them in this process.

    In production an import only queues the aggregation model's fit, which a Celery worker runs in its own
    process; without a broker the test settings run it here, eagerly, at the commit, and crowd-kit's fit
    (about 130 MB with its libraries, seconds on 500,000 judgments) would be counted as the import's
    memory and time. The fit's own speed is measured by bench/adaptive_replay.py (`fit_seconds`).
    """
    from django.conf import settings

    from config.celery import app

    settings.CELERY_TASK_ALWAYS_EAGER = False
    app.conf.update(task_always_eager=False, broker_url="memory://")


def migrate() -> None:
    from django.core.management import call_command

    started = time.perf_counter()
    call_command("migrate", interactive=False, verbosity=0)
    log(f"database migrated ({time.perf_counter() - started:.1f} s)")


def copy_rows(model: Any, fields: Sequence[str], rows: Iterable[Sequence[Any]]) -> int:
    """Insert rows with PostgreSQL COPY (far faster than INSERT for 10^5 rows). Returns the count."""
    from django.db import connection

    columns = [model._meta.get_field(f).column for f in fields]
    return copy_table(connection.ops.quote_name(model._meta.db_table), columns, rows)


def copy_table(table: str, columns: Sequence[str], rows: Iterable[Sequence[Any]]) -> int:
    """COPY rows into a table named as it is in the database (a scratch table, a model's db_table); the count.
    Column names are quoted ("group" is an SQL keyword)."""
    from django.db import connection

    names = ", ".join(connection.ops.quote_name(c) for c in columns)
    count = 0
    with connection.cursor() as cursor, cursor.copy(f"COPY {table} ({names}) FROM STDIN") as copy:
        for row in rows:
            copy.write_row(row)
            count += 1
    return count


def copy_rate(rows: int = 100_000) -> float:
    """Rows per second of a plain COPY into an index-free scratch table shaped like an item version: the
    machine's yardstick, printed by every bench as `copy_rows_per_second` so figures compare across machines.
    Benches that write rows in bulk copy as many; the others a fixed 100,000 (a few thousand rows would
    measure the statement's start-up more than the copying)."""
    from django.db import connection, transaction

    payload = json.dumps({"question": "Apa makanan khas Lebaran?", "choices": ["a", "b", "c", "d", "e"]})
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("CREATE TEMP TABLE bench_scratch (id integer, number integer, payload jsonb, note text)")
        started = time.perf_counter()
        copy_table(
            "bench_scratch", ["id", "number", "payload", "note"], ((i, 1, payload, "bench") for i in range(rows))
        )
        seconds = time.perf_counter() - started
        with connection.cursor() as cursor:
            cursor.execute("DROP TABLE bench_scratch")
    return rows / seconds


def emit_judged(name: str, result: dict[str, Any]) -> None:
    """The final stdout line with the goals of bench/goals.py judged (`goals`, `goals_met`)."""
    emit({**result, **judge(name, result)})


def write_planned_blocks(project_id: int) -> float:
    """Seconds to write every slot a big plan left in blocks (annotation.services.planned_blocks) into the
    assignment table at once: judges' claims spread this over the judging; a bench that simulates the
    answers needs every row first, so it writes them all and reports the time apart."""
    from annotation.services.planned_blocks import planned_blocks_write_all

    started = time.perf_counter()
    planned_blocks_write_all(project_id=project_id)
    return time.perf_counter() - started


def peak_rss_mb() -> float:
    """This process's peak resident memory. VmHWM, not getrusage: Linux carries ru_maxrss across exec,
    so a child started from a big parent would report the parent's size."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"


def log_in(user_ids: Iterable[int]) -> dict[int, str]:
    """One session cookie per user, made before the clock starts (a browser that logged in earlier)."""
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.test import Client

    sessions = {}
    for user in get_user_model().objects.filter(pk__in=list(user_ids)):
        client = Client()
        client.force_login(user, backend=MODEL_BACKEND)
        sessions[user.pk] = client.cookies[settings.SESSION_COOKIE_NAME].value
    return sessions


def percentile(sorted_values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile of already sorted values."""
    if not sorted_values:
        return float("nan")
    rank = max(1, math.ceil(q / 100 * len(sorted_values)))
    return sorted_values[rank - 1]


def run_threads(targets: Sequence[Any], *, connect: bool = True) -> None:
    """Start one thread per callable, all released together; re-raise the first failure.

    connect: open each thread's database connection before the start, so set-up is not measured.
    """
    from django.db import connection

    barrier = threading.Barrier(len(targets))
    errors: list[BaseException] = []

    def work(target) -> None:
        try:
            if connect:
                connection.ensure_connection()
            barrier.wait(timeout=120)
            target()
        except BaseException as exc:  # noqa: BLE001 - reported below, after every thread stopped
            errors.append(exc)
            barrier.abort()
        finally:
            connection.close()

    threads = [threading.Thread(target=work, args=(t,), name=f"client-{i}") for i, t in enumerate(targets)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if errors:
        raise errors[0]
