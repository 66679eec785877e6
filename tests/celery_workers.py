"""Real Celery worker processes for tests (prefork, on Redis and the test database).

Each worker runs in its own process group (its pool child and beat die with it on SIGKILL) and logs to
a file whose tail goes into failure messages. Tests that use them need the `broker` fixture of
tests/qc/test_run_faults.py (or `use_broker` with a Redis of their own, `RedisServer`), so that this
process sends its tasks to the same Redis.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

from django.conf import settings as django_settings
from django.db import connection

from config.celery import app

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

    def start(
        self,
        name: str,
        *,
        beat: bool = False,
        env: dict[str, str] | None = None,
        queues: str | None = None,
        concurrency: int = 1,
    ) -> subprocess.Popen:
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
            f"--concurrency={concurrency}",
            "-Q",
            queues or self.queues,
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


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextlib.contextmanager
def use_broker(settings, url: str) -> Iterator[None]:
    """This process sends tasks to the broker at `url` instead of running them eagerly."""
    # Read the app's values before changing the settings: the first read of app.conf loads it from
    # them, and would otherwise save (and restore) this helper's own values.
    keys = ("broker_url", "result_backend", "task_always_eager")
    previous = {key: app.conf[key] for key in keys}
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.CELERY_BROKER_URL = url
    settings.CELERY_RESULT_BACKEND = url

    def reset_connections():
        # Connections and the result backend are cached on the app: drop them so the new URLs are used.
        app._pool = None
        app.__dict__.pop("amqp", None)
        if hasattr(app._local, "backend"):
            del app._local.backend

    app.conf.update(broker_url=url, result_backend=url, task_always_eager=False)
    reset_connections()
    try:
        yield
    finally:
        app.conf.update(previous)
        reset_connections()


class RedisServer:
    """A redis-server of the test's own on a free port, without persistence: killed, it comes back empty
    (as a restarted Redis without a volume)."""

    def __init__(self, tmp_path: Path):
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.log = tmp_path / f"redis-{self.port}.log"
        self.proc: subprocess.Popen | None = None

    def start(self) -> None:
        command = ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                return
            time.sleep(0.05)
        raise AssertionError(f"redis-server did not start on {self.port}: {self.log.read_text(errors='replace')}")

    def kill(self) -> None:
        if self.proc is not None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=10)
            self.proc = None
