"""Real Celery worker processes for tests (prefork, on Redis and the test database).

Each worker runs in its own process group (its pool child and beat die with it on SIGKILL) and logs to
a file whose tail goes into failure messages. Tests that use them need the `broker` fixture of
tests/qc/test_run_faults.py, so that this process sends its tasks to the same Redis.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
from pathlib import Path
from urllib.parse import quote

from django.conf import settings as django_settings
from django.db import connection

REDIS = os.environ.get("GOTONG_TEST_CELERY_REDIS", "redis://127.0.0.1:6379/5")


def database_url() -> str:
    """The test database (not the configured one) as a URL for the worker processes."""
    db = connection.settings_dict
    auth = quote(db["USER"] or "", safe="")
    if db.get("PASSWORD"):
        auth += ":" + quote(db["PASSWORD"], safe="")
    return f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


class WorkerPool:
    """Worker subprocesses started with `env` (over the test environment) consuming `queues`."""

    def __init__(self, tmp_path: Path, *, env: dict[str, str], queues: str = "celery", log_tail: int = 5000):
        self.tmp_path = tmp_path
        self.env = env
        self.queues = queues
        self.log_tail = log_tail
        self.procs: list[subprocess.Popen] = []
        self.logs: list[Path] = []

    def start(self, name: str, *, beat: bool = False, env: dict[str, str] | None = None) -> subprocess.Popen:
        environment = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "config.settings.test_worker",
            "DATABASE_URL": database_url(),
            "REDIS_URL": REDIS,
            "PYTHONUNBUFFERED": "1",
            **self.env,
            **(env or {}),
        }
        log = self.tmp_path / f"{name}.log"
        command = [
            str(Path(sys.executable).parent / "celery"),
            "-A",
            "config",
            "worker",
            "--pool=prefork",
            "--concurrency=1",
            "-Q",
            self.queues,
            *(["-B", f"--schedule={self.tmp_path / f'{name}-beat-schedule'}"] if beat else []),
            f"--hostname={name}@%h",
            "--loglevel=INFO",
            "--without-gossip",
            "--without-mingle",
        ]
        with log.open("wb") as out:
            proc = subprocess.Popen(
                command,
                cwd=django_settings.BASE_DIR,
                env=environment,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        self.procs.append(proc)
        self.logs.append(log)
        return proc

    def kill(self, proc: subprocess.Popen) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)

    def kill_all(self) -> None:
        for proc in self.procs:
            self.kill(proc)

    def output(self) -> str:
        tail = self.log_tail
        return "\n".join(f"--- {log.name}\n{log.read_text(errors='replace')[-tail:]}" for log in self.logs)
