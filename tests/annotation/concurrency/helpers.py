"""Run service calls from real threads, each with its own PostgreSQL connection, released together."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.db import connection

from tests.factories import CsqaProject, make_csqa_project

User = get_user_model()


@dataclass
class Outcome:
    value: Any = None
    error: BaseException | None = None


def run_together(calls: list[Callable[[], Any]], *, timeout: float = 60) -> list[Outcome]:
    """Call every function in its own thread, all released at once by a barrier; outcomes in order.

    Each thread opens its connection before the barrier, so the calls race on the database rather than
    on connection set-up, and closes it at the end so the test database can be flushed and dropped.
    """
    barrier = threading.Barrier(len(calls))
    outcomes = [Outcome() for _ in calls]

    def work(index: int, call: Callable[[], Any]) -> None:
        try:
            connection.ensure_connection()
            barrier.wait(timeout=timeout)
            outcomes[index].value = call()
        except BaseException as exc:  # noqa: BLE001 - the test inspects whatever happened
            outcomes[index].error = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=work, args=(i, call)) for i, call in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout)
    assert not any(thread.is_alive() for thread in threads), "a thread is still running (deadlock?)"
    return outcomes


def make_user(username: str):
    # No password: Argon2 for dozens of users would dominate the run time and proves nothing here.
    user = User(username=username)
    user.set_unusable_password()
    user.save()
    return user


def make_project(
    *, slug: str, annotators: int, reviewers: int = 1, categories: int = 1, concepts: int = 4
) -> CsqaProject:
    """A csqa project with k = 2; concept names are `konsep<category>x<n>`, `concepts` per category."""
    return make_csqa_project(
        slug=slug,
        annotators=annotators,
        reviewers=reviewers,
        categories=categories,
        concepts_per_category=concepts,
        first_concept=None,
        guidelines="",
    )


def payload_for(concept: str, tag: str = "") -> dict[str, Any]:
    return {
        "question": f"Di mana orang biasanya menemukan {concept}?{' ' + tag if tag else ''}",
        "choices": ["Di pasar", "Di sawah", "Di laut", "Di gunung", "Di kota"],
        "answer": "A",
    }
