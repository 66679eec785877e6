"""A benchmark run of 10,000 predictions through real Celery worker processes to the local
OpenAI-compatible test server, then the leaderboard of that run.

5,000 gold csqa items x 2 templates (question_choices, helm) x 1 endpoint = 10,000 calls; the server
answers after 50 ms ("Jawaban: A" or "B", so the extraction rules and both outcomes run); the endpoint
allows 32 calls at once; two worker processes. `ideal_per_second` = 32 / 0.05 = 640, `ratio` =
predictions_per_second / ideal (goal >= 0.85). Wall time runs from the run's creation (the worker plans
it: 5,000 cases and 10,000 calls) until it is done, so planning and recording are in the figure.
`leaderboard_ms`: building the run's report (evaluation/benchmarks/report.py benchmark_report: every
breakdown with its bootstrap interval, template spread, human baseline, unparsed list), the median of
three builds (goal < 300 ms); `leaderboard_first_ms` is the first one. `mean_request_ms` is the
requests' mean time in the client, `plan_seconds` the owner's planning, and `copy_rows_per_second` a
plain COPY of as many rows into a scratch table in the same run, so figures compare across machines.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/gotong_bench_benchmark REDIS_URL=redis://127.0.0.1:6379/1 \\
        .venv/bin/python bench/benchmark_runs.py

The database named in DATABASE_URL is dropped and re-created (its name must contain "bench"); REDIS_URL
is the workers' broker and holds the shared limiter. Progress on stderr; the last stdout line is one
JSON object.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench._common import copy_rate, database_url_or_exit, emit_judged, log, migrate, recreate_database  # noqa: E402
from bench.llm_runs import cpu_seconds, start_workers, wait_ready  # noqa: E402

LIMIT = 32
DELAY_MS = 50
TEMPLATES = ["question_choices", "helm"]


def make_project(items: int):
    """A csqa project with `items` gold items (bulk inserts: the filling is not what is measured)."""
    from annotation.models import Category, Concept, Item, ItemVersion, Project, ProjectLanguage
    from qc.models import GoldDecision

    project = Project.objects.create(name="Bench benchmark", slug="bench-benchmark", task_type="csqa")
    ProjectLanguage.objects.create(project=project, code="id", name="Indonesian")
    categories = [Category.objects.create(project=project, name=name) for name in ("makanan", "adat", "tempat")]
    concepts = Concept.objects.bulk_create(
        [Concept(project=project, category=categories[n % 3], name=f"konsep {n}") for n in range(items // 10 + 1)]
    )
    rows = Item.objects.bulk_create(
        [
            Item(
                project=project,
                task_type="csqa",
                concept=concepts[n // 10],
                status=Item.Status.GOLD,
                source=Item.Source.HUMAN,
                slot=n % 10,
            )
            for n in range(items)
        ],
        batch_size=2000,
    )
    versions = ItemVersion.objects.bulk_create(
        [
            ItemVersion(
                item=item,
                number=1,
                payload={
                    "question": f"Apa jawaban soal {n}?",
                    "choices": [f"pilihan {n} {letter}" for letter in "ABCDE"],
                    "answer": "AB"[n % 2],
                },
            )
            for n, item in enumerate(rows)
        ],
        batch_size=2000,
    )
    for item, version in zip(rows, versions, strict=True):
        item.current_version = version
    Item.objects.bulk_update(rows, ["current_version"], batch_size=2000)
    GoldDecision.objects.bulk_create(
        [
            GoldDecision(
                item=item,
                policy="csqa_majority_v1",
                outcome="gold",
                details={"majority": "A", "author_answer": "AB"[n % 2]},
            )
            for n, item in enumerate(rows)
        ],
        batch_size=2000,
    )
    return project


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--items", type=int, default=5000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--threads", type=int, default=LIMIT, help="threads per worker")
    args = parser.parse_args()
    url = database_url_or_exit()
    if not os.environ.get("REDIS_URL", "").startswith("redis://"):
        sys.exit("This benchmark needs REDIS_URL=redis://... (the workers' broker and the shared limiter).")
    recreate_database(url)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test_worker")
    import django

    django.setup()
    migrate()
    from django.db import connections
    from django.db.models import Avg

    from evaluation.benchmarks.report import benchmark_report
    from evaluation.models import Call, Prediction
    from evaluation.services.endpoints import endpoint_create
    from evaluation.services.runs import run_create
    from tests.evaluation.llm_server import LLMServer

    logs = Path(os.environ.get("TMPDIR", "/tmp")) / "gotong-bench-benchmark"
    logs.mkdir(exist_ok=True)
    started_fill = time.perf_counter()
    project = make_project(args.items)
    predictions = args.items * len(TEMPLATES)
    log(f"{args.items} gold items in {time.perf_counter() - started_fill:.1f} s")
    server = LLMServer()
    procs: list[subprocess.Popen] = []
    try:
        server.configure(
            delay_ms=DELAY_MS, replies=[{"match": "soal 1", "reply": "B"}], default={"reply": "Jawaban: A"}
        )
        endpoint = endpoint_create(
            name="bench", base_url=server.url, model="bench", is_local=True, timeout_seconds=30, max_concurrency=LIMIT
        )
        connections.close_all()
        procs = start_workers(args.workers, threads=args.threads, logs=logs)
        wait_ready(args.workers)
        log(f"{args.workers} workers ready; {predictions} predictions, limit {LIMIT}, {DELAY_MS} ms replies")
        cpu_before = (cpu_seconds([server.proc.pid]), [cpu_seconds([p.pid]) for p in procs])
        started = time.perf_counter()
        run = run_create(kind="benchmark", endpoints=[endpoint], project=project, parameters={"templates": TEMPLATES})
        last_log = 0.0
        while True:
            run.refresh_from_db()
            if run.status not in ("pending", "running"):
                break
            if time.perf_counter() - last_log > 5:
                log(f"{run.progress}/{run.total or '?'}")
                last_log = time.perf_counter()
            time.sleep(0.02)
        wall = time.perf_counter() - started
        cpu_after = (cpu_seconds([server.proc.pid]), [cpu_seconds([p.pid]) for p in procs])
        stats = server.stats()
        stored = Prediction.objects.filter(run=run).count()
        if (run.status, run.calls_done, stored) != ("done", predictions, predictions):
            raise SystemExit(f"run ended {run.status} with {run.calls_done} done, {stored} predictions: {run.error}")
        timings = []
        report = None
        for _ in range(3):
            began = time.perf_counter()
            report = benchmark_report(run=run)
            timings.append((time.perf_counter() - began) * 1000)
        ideal = LIMIT / (DELAY_MS / 1000)
        latency = Call.objects.filter(run=run).aggregate(mean=Avg("latency_ms"))["mean"]
        per_second = predictions / wall
        result = {
            "predictions": predictions,
            "workers": args.workers,
            "threads_per_worker": args.threads,
            "wall_seconds": round(wall, 2),
            "active_seconds": round((run.finished_at - run.started_at).total_seconds(), 2),
            "predictions_per_second": round(per_second, 1),
            "ideal_per_second": ideal,
            "ratio": round(per_second / ideal, 3),
            "max_concurrent_seen": stats["max_concurrent"],
            # The requests' own mean time in the client (the server waits DELAY_MS): what is lost
            # in each worker's threads waiting for the interpreter lock, the rest in planning.
            "mean_request_ms": round(latency, 1),
            "plan_seconds": round((run.planned_at - run.started_at).total_seconds(), 2),
            "requests": stats["chat"],
            "server_cpu_seconds": round(cpu_after[0] - cpu_before[0], 2),
            "workers_cpu_seconds": round(sum(cpu_after[1]) - sum(cpu_before[1]), 2),
            # Each worker's share: one busy worker and one idle one means the slots were not shared.
            "workers_cpu_seconds_each": [round(a - b, 2) for a, b in zip(cpu_after[1], cpu_before[1], strict=True)],
            "leaderboard_ms": round(statistics.median(timings), 1),
            "leaderboard_first_ms": round(timings[0], 1),
            "report_accuracy": report["accuracy"],
            "report_predictions": report["predictions"],
            "copy_rows_per_second": round(copy_rate(predictions)),
        }
    finally:
        for proc in procs:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
        server.stop()
    emit_judged("benchmark_runs", result)


if __name__ == "__main__":
    main()
