"""Serve benchmark requests the way a deployment does: a few worker processes behind one queue.

The deployment (docker/entrypoint.sh) runs gunicorn with GUNICORN_WORKERS=3 sync workers: each process
handles one request at a time and clients beyond that wait in the listen queue. `ProcessServer` forks
that many processes; each runs requests through Django's test `Client` (the whole middleware, session,
auth, view, service and SQL path) and reports the time it spent on each one and the queries it ran.
Client threads in the parent only send requests and wait for answers, so the GIL of one process never
counts as server time.

`ThreadServer` is the other model: every client thread runs Django itself in the parent process, so
its timings also include waiting for the GIL behind the other clients.
"""

from __future__ import annotations

import multiprocessing
import queue
import threading
import time
import traceback
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Answer:
    status: int
    data: Any
    server_ms: float
    queries: int


def _handle(client: Any, session_key: str, path: str, body: dict) -> Answer:
    from django.conf import settings
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    # The browser's session cookie: any worker can serve any annotator, as behind a load balancer.
    client.cookies[settings.SESSION_COOKIE_NAME] = session_key
    # The capture counts from the log's length, and the log keeps only the last 9,000 queries.
    connection.queries_log.clear()
    with CaptureQueriesContext(connection) as captured:
        started = time.perf_counter()
        response = client.post(path, body, content_type="application/json")
        server_ms = (time.perf_counter() - started) * 1000
    data = response.json() if response.status_code == 200 else response.content[:1000].decode("utf-8", "replace")
    return Answer(response.status_code, data, server_ms, len(captured))


def _serve(tasks: Any, answers: Any) -> None:
    from django.db import connection
    from django.test import Client

    client = Client()
    try:
        while (task := tasks.get()) is not None:
            ticket, session_key, path, body = task
            try:
                answers.put((ticket, _handle(client, session_key, path, body)))
            except Exception:  # noqa: BLE001 - the client thread raises it with the traceback
                answers.put((ticket, traceback.format_exc()))
    finally:
        connection.close()


class ProcessServer:
    def __init__(self, workers: int, clients: int) -> None:
        from django.db import connections

        # Forked children must not share the parent's sockets to PostgreSQL.
        connections.close_all()
        context = multiprocessing.get_context("fork")
        self.tasks = context.Queue()
        self.answers = context.Queue()
        self.mailboxes = [queue.SimpleQueue() for _ in range(clients)]
        self.processes = [
            context.Process(target=_serve, args=(self.tasks, self.answers), name=f"server-{i}", daemon=True)
            for i in range(workers)
        ]
        for process in self.processes:
            process.start()
        self.router = threading.Thread(target=self._route, daemon=True)
        self.router.start()

    def _route(self) -> None:
        while (message := self.answers.get()) is not None:
            ticket, answer = message
            self.mailboxes[ticket].put(answer)

    def post(self, client_index: int, session_key: str, path: str, body: dict) -> Answer:
        self.tasks.put((client_index, session_key, path, body))
        answer = self.mailboxes[client_index].get(timeout=300)
        if isinstance(answer, str):
            raise RuntimeError(f"the server failed:\n{answer}")
        return answer

    def close(self) -> None:
        for _ in self.processes:
            self.tasks.put(None)
        for process in self.processes:
            process.join(30)
        self.answers.put(None)
        self.router.join(10)


class ThreadServer:
    def __init__(self, clients: int) -> None:
        self.clients: list[Any] = [None] * clients

    def post(self, client_index: int, session_key: str, path: str, body: dict) -> Answer:
        from django.test import Client

        if self.clients[client_index] is None:
            self.clients[client_index] = Client()
        return _handle(self.clients[client_index], session_key, path, body)

    def close(self) -> None:
        pass
