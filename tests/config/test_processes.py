"""The documented processes consume every queue the code sends tasks to, and are the same everywhere.

The queues come from the Celery app (CELERY_TASK_ROUTES and every task's own options), so a task routed
to a new queue fails here until a documented worker consumes it. The commands come from the files
people run: the manual's production page (docs/operations/production.md), docker/entrypoint.sh (its
cases), the services of docker/compose.yaml and what scripts/start supervises.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
import yaml
from django.conf import settings

from config.celery import app

ROOT = Path(settings.BASE_DIR)
WORKER = re.compile(r"celery -A config worker\b(?P<args>(?:[^\n\\]|\\\n)*)")
QUEUES = re.compile(r"(?:-Q|--queues)[ =](\S+)")
CASE = re.compile(r"^(?P<name>[\w-]+)\)\n(?P<body>.*?)^\s*;;", re.MULTILINE | re.DOTALL)
SUPERVISED = re.compile(r'^\s*supervise "[^"]+" sh docker/entrypoint\.sh ([\w-]+)$', re.MULTILINE)


def routed_queues() -> dict[str, str]:
    """Every task's queue, as `apply_async` would route it."""
    app.loader.import_default_modules()
    return {
        name: app.amqp.router.route(task._get_exec_options(), name)["queue"].name
        for name, task in app.tasks.items()
        if not name.startswith("celery.")
    }


def consumed(text: str) -> set[str]:
    """The queues the `celery worker` commands in `text` consume (without -Q: the default queue only)."""
    queues: set[str] = set()
    for command in WORKER.finditer(text):
        named = QUEUES.search(command["args"])
        queues |= set(named.group(1).split(",")) if named else {app.conf.task_default_queue}
    return queues


def entrypoint_cases() -> dict[str, str]:
    text = (ROOT / "docker/entrypoint.sh").read_text()
    return {case["name"]: case["body"] for case in CASE.finditer(text)}


def compose_services() -> dict[str, dict]:
    return yaml.safe_load((ROOT / "docker/compose.yaml").read_text())["services"]


def docs_production() -> str:
    return (ROOT / "docs/operations/production.md").read_text()


def compose_cases() -> set[str]:
    return {service["command"][0] for service in compose_services().values() if "build" in service}


def start_cases() -> set[str]:
    return set(SUPERVISED.findall((ROOT / "scripts/start").read_text()))


def _consumed_by_cases(cases: set[str]) -> set[str]:
    bodies = entrypoint_cases()
    return set().union(*(consumed(bodies[case]) for case in cases))


SOURCES = {
    "docs": lambda: consumed(docs_production()),
    "compose": lambda: _consumed_by_cases(compose_cases()),
    "scripts_start": lambda: _consumed_by_cases(start_cases()),
}


def test_model_runs_have_their_own_queue_apart_from_exports_and_reports():
    queues = routed_queues()

    assert queues["evaluation.run_start"] == queues["evaluation.run_help"] == "llm"
    assert {queues["qc.export_gold"], queues["qc.build_report"], queues["qc.sweep_runs"]} == {"celery"}
    assert set(queues.values()) == {"celery", "llm"}


@pytest.mark.parametrize("source", SOURCES)
def test_the_documented_workers_consume_every_queue_the_code_sends_to(source):
    missing = set(routed_queues().values()) - SOURCES[source]()

    assert missing == set(), f"{source} starts no worker for queue(s) {sorted(missing)}"


@pytest.mark.parametrize("source", SOURCES)
def test_exports_and_model_runs_are_consumed_by_different_workers(source):
    # One worker of both queues let two slow model runs hold its processes while an export waited.
    text = {
        "docs": docs_production(),
        "compose": "\n".join(entrypoint_cases()[case] for case in compose_cases()),
        "scripts_start": "\n".join(entrypoint_cases()[case] for case in start_cases()),
    }[source]

    per_worker = [QUEUES.search(command["args"]).group(1) for command in WORKER.finditer(text)]

    assert sorted(per_worker) == ["celery", "llm"]


def test_a_worker_without_queues_consumes_only_the_default_one():
    # The command docker/entrypoint.sh used to run: the llm queue was never consumed.
    old = 'exec celery -A config worker --loglevel="${CELERY_LOGLEVEL:-INFO}" --concurrency=2\n'

    assert consumed(old) == {"celery"}
    assert consumed("celery -A config worker -Q celery,llm --loglevel=INFO &") == {"celery", "llm"}
    assert consumed("celery -A config worker \\\n    -Q llm --loglevel=INFO") == {"llm"}


def test_scripts_start_and_compose_run_the_same_processes():
    cases = set(entrypoint_cases()) - {"*"}

    assert compose_cases() == cases
    assert start_cases() == cases - {"web"}  # scripts/start serves with runserver (supervised too)


def test_compose_restarts_every_service_that_dies():
    restarts = {name: service.get("restart") for name, service in compose_services().items()}

    assert restarts == dict.fromkeys(restarts, "unless-stopped")
    assert set(restarts) == {"web", "worker", "worker-llm", "beat", "postgres", "redis"}


def test_scripts_start_starts_a_dead_process_again_and_stops_it_with_itself(tmp_path):
    # scripts/start's own `supervise`, on a process that dies after half a second and one that stays; the
    # script stops them once the first was started a third time (a subprocess timeout if it never is).
    function = re.search(r"^supervise\(\) \{\n.*?^\}\n", (ROOT / "scripts/start").read_text(), re.MULTILINE | re.DOTALL)
    starts, survivor = tmp_path / "starts", tmp_path / "survivor.pid"
    script = f"""set -euo pipefail
say() {{ :; }}
pids=()
{function.group(0)}
supervise "dies" sh -c 'echo started >> {starts}; sleep 0.5; exit 3'
supervise "stays" sh -c 'echo $$ > {survivor}; exec sleep 600'
until [ "$(cat {starts} 2>/dev/null | wc -l)" -ge 3 ]; do sleep 0.1; done
kill -TERM "${{pids[@]}}"
wait "${{pids[@]}}" 2>/dev/null || true
"""
    subprocess.run(["bash", "-c", script], check=True, timeout=30)

    assert len(starts.read_text().splitlines()) == 3  # started twice more, then stopped with the script
    assert subprocess.run(["kill", "-0", survivor.read_text().strip()], capture_output=True).returncode == 1
