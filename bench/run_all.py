"""Run every bench at its goals' size (or at a small size), print one table and keep the JSON lines.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/gotong REDIS_URL=redis://127.0.0.1:6379/1 \\
        .venv/bin/python bench/run_all.py                 # every bench at its size; about 25 minutes
    .venv/bin/python bench/run_all.py --only import_items nli_rounds
    .venv/bin/python bench/run_all.py --small             # seconds each: does every bench still run?

Each bench gets its own database, `gotong_bench_<name>` on DATABASE_URL's server (dropped and re-created
by the bench), so one bench's fill never slows another. The benches that start Celery workers get
REDIS_URL; the others run their tasks in-process.

The table has a row per goal: bench, figure, goal, measured, the same run's `copy_rows_per_second`
(the machine's yardstick) and whether it is met. The JSON lines (one per bench: its arguments, exit
status, wall time and its own JSON line) go to `--results` (default bench/results.jsonl at full size,
nowhere at the small size), which the documentation's benchmark page is generated from.

Exit status: 1 when a bench fails (non-zero exit or no JSON line); at full size also when a goal is not
met. At the small size the goals are not judged: the figures of a few hundred rows mean nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._common import TEMPLATE_ENV, recreate_database  # noqa: E402
from bench.goals import BENCHES, Bench, judge_goals  # noqa: E402

BENCH_DIR = Path(__file__).resolve().parent
ROOT = BENCH_DIR.parent
TEMPLATE = "gotong_bench_template"
DEFAULT_RESULTS = BENCH_DIR / "results.jsonl"
DEFAULT_DATABASE = "postgres://postgres@127.0.0.1:5432/gotong"


@dataclass
class Outcome:
    bench: Bench
    args: tuple[str, ...]
    exit_status: int
    seconds: float
    result: dict[str, Any] | None  # the bench's JSON line; None when it printed none
    error: str = ""

    @property
    def ran(self) -> bool:
        return self.exit_status == 0 and self.result is not None


def database_url_for(base: str, bench: Bench) -> str:
    return urlsplit(base)._replace(path=f"/gotong_bench_{bench.name}").geturl()


def last_json_line(stdout: str) -> dict[str, Any] | None:
    for line in reversed(stdout.strip().splitlines()):
        try:
            value = json.loads(line)
        except ValueError:
            continue
        return value if isinstance(value, dict) else None
    return None


def prepare_template(database: str) -> str:
    """A migrated database the benches' own are copied from (bench._common.recreate_database), made once."""
    url = urlsplit(database)._replace(path=f"/{TEMPLATE}").geturl()
    env = {**os.environ, "DATABASE_URL": url, "DJANGO_SETTINGS_MODULE": "config.settings.test", "REDIS_URL": ""}
    env.pop(TEMPLATE_ENV, None)
    print(f"==> migrating {TEMPLATE}, the benches' template", file=sys.stderr, flush=True)
    recreate_database(url)
    subprocess.run([sys.executable, str(ROOT / "manage.py"), "migrate", "--verbosity=0"], env=env, check=True)
    return TEMPLATE


def run_bench(bench: Bench, *, small: bool, bench_dir: Path, database: str, redis: str, template: str = "") -> Outcome:
    args = bench.small_args if small else bench.args
    env = {
        **os.environ,
        "DATABASE_URL": database_url_for(database, bench),
        "REDIS_URL": redis if bench.needs_redis else "",
        TEMPLATE_ENV: template,
    }
    env.pop("DJANGO_SETTINGS_MODULE", None)  # each bench chooses its own settings
    print(f"==> {bench.name} {' '.join(args)}", file=sys.stderr, flush=True)
    started = time.perf_counter()
    # stderr passes through: the bench's progress is what a person watching wants to see.
    child = subprocess.run(
        [sys.executable, str(bench_dir / f"{bench.name}.py"), *args],
        stdout=subprocess.PIPE,
        text=True,
        env=env,
        check=False,
    )
    seconds = time.perf_counter() - started
    result = last_json_line(child.stdout)
    error = ""
    if child.returncode != 0:
        error = f"exit status {child.returncode}"
    elif result is None:
        error = "no JSON line on stdout"
    return Outcome(bench, tuple(args), child.returncode, round(seconds, 1), result, error)


def table_rows(outcomes: Sequence[Outcome], *, small: bool) -> list[tuple[str, ...]]:
    rows = []
    for outcome in outcomes:
        copy = outcome.result.get("copy_rows_per_second", "") if outcome.result else ""
        if not outcome.ran:
            rows.append((outcome.bench.name, "(did not run)", "", outcome.error, str(copy), "no"))
            continue
        for figure, goal in judge_goals(outcome.bench.goals, outcome.result)["goals"].items():
            met = "-" if small else ("yes" if goal["met"] else "no")
            rows.append((outcome.bench.name, figure, goal["goal"], str(goal["measured"]), str(copy), met))
    return rows


def format_table(rows: Sequence[tuple[str, ...]]) -> str:
    header = ("bench", "figure", "goal", "measured", "copy rows/s", "met")
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    lines = [" | ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)) for row in [header, *rows]]
    lines.insert(1, "-+-".join("-" * width for width in widths))
    return "\n".join(lines)


def write_results(path: Path, outcomes: Sequence[Outcome], *, small: bool) -> None:
    with path.open("w", encoding="utf-8") as out:
        for outcome in outcomes:
            line = {
                "bench": outcome.bench.name,
                "size": "small" if small else outcome.bench.size,
                "args": list(outcome.args),
                "exit_status": outcome.exit_status,
                "seconds": outcome.seconds,
                "result": outcome.result,
            }
            out.write(json.dumps(line, sort_keys=True) + "\n")


def main(
    argv: Sequence[str] | None = None,
    *,
    benches: Sequence[Bench] = BENCHES,
    bench_dir: Path = BENCH_DIR,
    prepare: Callable[[str], str] = prepare_template,
) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--small", action="store_true", help="the CI size: proves each bench runs, judges nothing")
    parser.add_argument("--only", nargs="+", metavar="BENCH", choices=[b.name for b in benches])
    parser.add_argument(
        "--results", type=Path, help="where the JSON lines go (default: bench/results.jsonl at full size)"
    )
    options = parser.parse_args(argv)
    chosen = [b for b in benches if not options.only or b.name in options.only]
    database = os.environ.get("DATABASE_URL") or DEFAULT_DATABASE
    if not database.startswith(("postgres://", "postgresql://")):
        parser.error("the benches measure PostgreSQL: set DATABASE_URL=postgres://...")
    redis = os.environ.get("REDIS_URL", "")
    if any(b.needs_redis for b in chosen) and not redis.startswith("redis://"):
        parser.error("llm_runs and benchmark_runs start Celery workers: set REDIS_URL=redis://...")

    template = prepare(database)
    outcomes = [
        run_bench(bench, small=options.small, bench_dir=bench_dir, database=database, redis=redis, template=template)
        for bench in chosen
    ]
    print(format_table(table_rows(outcomes, small=options.small)))
    results = options.results or (None if options.small else DEFAULT_RESULTS)
    if results:
        write_results(results, outcomes, small=options.small)
        print(f"results: {results}", file=sys.stderr)
    failed = [o.bench.name for o in outcomes if not o.ran]
    unmet = (
        []
        if options.small
        else [o.bench.name for o in outcomes if o.ran and not judge_goals(o.bench.goals, o.result)["goals_met"]]
    )
    if failed:
        print(f"FAILED to run: {', '.join(failed)}", file=sys.stderr)
    if unmet:
        print(f"goals not met: {', '.join(unmet)}", file=sys.stderr)
    return 1 if failed or unmet else 0


if __name__ == "__main__":
    sys.exit(main())
