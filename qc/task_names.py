"""The names of qc's Celery tasks, and how a service sends one.

qc.tasks runs each task over a service (exports, report snapshots, gold); the services that enqueue work
send it by name through this module, so neither imports the other. qc.apps imports qc.tasks at start-up,
so in every process a name finds its registered task, and with CELERY_TASK_ALWAYS_EAGER (the tests, the
SQLite demo) the task still runs in place.
"""

from __future__ import annotations

from typing import Any

from celery import current_app

EXPORT_GOLD = "qc.export_gold"
SWEEP_RUNS = "qc.sweep_runs"
RECOMPUTE_GOLD = "qc.recompute_gold"
BUILD_REPORT = "qc.build_report"


def task_send(name: str, *, args: list[Any], task_id: str | None = None) -> None:
    """Send the registered task `name` (apply_async: routing, eager mode and the broker's errors as its own)."""
    current_app.tasks[name].apply_async(args=args, task_id=task_id)
