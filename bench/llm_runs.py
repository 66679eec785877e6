"""LLM runs through real Celery worker processes to the local OpenAI-compatible test server.

Figure 1 (does the limiter keep the endpoint busy without passing its limit?): 2,000 calls, two worker
processes, the server answering after 200 ms, endpoint limit 16. `ideal_seconds` = 2000 / 16 x 0.2;
`ratio` = wall / ideal (goal <= 1.15); `max_concurrent_seen` is the server's own count (goal <= 16).
Figure 2 (orchestration ceiling): the same with limit 256 and 5 ms replies; `ceiling_calls_per_second`
(goal >= 500) is what claiming, the limiter, the client and recording cost per call.
Wall time runs from the run's creation (its calls are planned by the worker) until it is done.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/gotong_bench_llm REDIS_URL=redis://127.0.0.1:6379/1 \\
        .venv/bin/python bench/llm_runs.py

The database named in DATABASE_URL is dropped and re-created (its name must contain "bench"); REDIS_URL
is the broker of the workers and holds the shared limiter. Progress on stderr; the last stdout line
is one JSON object.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench._common import copy_rate, database_url_or_exit, emit_judged, log, migrate, recreate_database  # noqa: E402


def start_workers(count: int, *, threads: int, logs: Path) -> list[subprocess.Popen]:
    procs = []
    for n in range(count):
        env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "config.settings.test_worker",
            "GOTONG_LLM_THREADS": str(threads),
            "GOTONG_LLM_HELPERS": str(count - 1),
            "DB_CONN_MAX_AGE": "3600",
            "PYTHONUNBUFFERED": "1",
        }
        log_file = (logs / f"worker{n}.log").open("wb")
        procs.append(
            subprocess.Popen(
                [
                    str(Path(sys.executable).parent / "celery"),
                    "-A",
                    "config",
                    "worker",
                    "--pool=prefork",
                    "--concurrency=1",
                    "-Q",
                    "llm",
                    f"--hostname=bench{n}@%h",
                    "--loglevel=WARNING",
                    "--without-gossip",
                    "--without-mingle",
                    "--without-heartbeat",
                ],
                cwd=ROOT,
                env=env,
                stdout=log_file,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        )
    return procs


def wait_ready(count: int) -> None:
    from config.celery import app

    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        replies = app.control.ping(timeout=1.0) or []
        if len(replies) >= count:
            return
    raise SystemExit("the workers did not start; see the logs")


def cpu_seconds(pids: list[int]) -> float:
    """User + system CPU time of these processes and their children so far (Linux /proc)."""
    total = 0.0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += sum(int(v) for v in fields[11:15]) / os.sysconf("SC_CLK_TCK")
        for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split():
            total += cpu_seconds([int(child)])
    return total


def one_run(server, *, name: str, limit: int, delay_ms: int, calls: int, workers: list[int]) -> dict:
    from evaluation.services.endpoints import endpoint_create
    from evaluation.services.runs import run_create

    server.configure(delay_ms=delay_ms)
    endpoint = endpoint_create(
        name=name, base_url=server.url, model="bench", is_local=True, timeout_seconds=30, max_concurrency=limit
    )
    prompts = [f"Pertanyaan nomor {i}" for i in range(calls)]
    cpu_before = (cpu_seconds([server.proc.pid]), cpu_seconds(workers))
    started = time.perf_counter()
    run = run_create(kind="responses", endpoints=[endpoint], parameters={"prompts": prompts})
    last_log = 0.0
    while True:
        run.refresh_from_db()
        if run.status not in ("pending", "running"):
            break
        if time.perf_counter() - last_log > 5:
            log(f"{name}: {run.progress}/{run.total or '?'}")
            last_log = time.perf_counter()
        time.sleep(0.02)
    wall = time.perf_counter() - started
    cpu_after = (cpu_seconds([server.proc.pid]), cpu_seconds(workers))
    stats = server.stats()
    if (run.status, run.calls_done) != ("done", calls):
        raise SystemExit(f"{name}: run ended {run.status} with {run.calls_done}/{calls} done: {run.error}")
    return {
        "wall": wall,
        "max_concurrent": stats["max_concurrent"],
        "requests": stats["chat"],
        "active_seconds": (run.finished_at - run.started_at).total_seconds(),
        "server_cpu_seconds": round(cpu_after[0] - cpu_before[0], 2),
        "workers_cpu_seconds": round(cpu_after[1] - cpu_before[1], 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--ceiling-threads", type=int, default=32, help="threads per worker for figure 2")
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

    from tests.evaluation.llm_server import LLMServer

    logs = Path(os.environ.get("TMPDIR", "/tmp")) / "gotong-bench-llm"
    logs.mkdir(exist_ok=True)
    server = LLMServer()
    procs: list[subprocess.Popen] = []
    try:
        result: dict = {"calls": args.calls, "workers": args.workers}
        # Figure 1: 16 threads per worker is all the limit lets work anyway.
        connections.close_all()
        procs = start_workers(args.workers, threads=16, logs=logs)
        wait_ready(args.workers)
        log(f"{args.workers} workers ready; figure 1: limit 16, 200 ms replies")
        first = one_run(
            server, name="limit16", limit=16, delay_ms=200, calls=args.calls, workers=[p.pid for p in procs]
        )
        ideal = args.calls / 16 * 0.2
        result.update(
            wall_seconds=round(first["wall"], 2),
            ideal_seconds=round(ideal, 2),
            ratio=round(first["wall"] / ideal, 3),
            max_concurrent_seen=first["max_concurrent"],
            requests=first["requests"],
        )
        log(f"figure 1: {result}")
        for proc in procs:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(timeout=30)
        procs = start_workers(args.workers, threads=args.ceiling_threads, logs=logs)
        wait_ready(args.workers)
        log(f"figure 2: limit 256, 5 ms replies, {args.ceiling_threads} threads per worker")
        second = one_run(
            server, name="limit256", limit=256, delay_ms=5, calls=args.calls, workers=[p.pid for p in procs]
        )
        result.update(
            ceiling_calls_per_second=round(args.calls / second["wall"], 1),
            ceiling_wall_seconds=round(second["wall"], 2),
            ceiling_max_concurrent_seen=second["max_concurrent"],
            # Where the CPU went (2 cores shared with everything else on the machine).
            ceiling_server_cpu_seconds=second["server_cpu_seconds"],
            ceiling_workers_cpu_seconds=second["workers_cpu_seconds"],
        )
        result["copy_rows_per_second"] = round(copy_rate())
    finally:
        for proc in procs:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
        server.stop()
    emit_judged("llm_runs", result)


if __name__ == "__main__":
    main()
