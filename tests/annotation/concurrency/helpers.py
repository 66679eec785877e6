"""Run service calls from real threads, each with its own PostgreSQL connection, released together."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.db import connection

from annotation.models import Category, Concept, Membership, Project
from annotation.services.projects import membership_add, project_create

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


@dataclass
class Setup:
    project: Project
    reviewers: list
    annotators: list


def make_project(*, slug: str, annotators: int, reviewers: int = 1, categories: int = 1, concepts: int = 4) -> Setup:
    """A csqa project with k = 2; concept names are `konsep<category>x<n>`, `concepts` per category."""
    admin = make_user(f"{slug}-admin")
    project = project_create(
        creator=admin,
        name=f"Project {slug}",
        slug=slug,
        task_type="csqa",
        languages=[{"code": "id", "name": "Indonesian"}],
        authors_per_concept=2,
    )
    staff = [make_user(f"{slug}-rev{i + 1}") for i in range(reviewers)]
    for user in staff:
        membership_add(project=project, user=user, role=Membership.Role.REVIEWER)
    people = [make_user(f"{slug}-ann{i + 1}") for i in range(annotators)]
    for i, user in enumerate(people):
        membership_add(project=project, user=user, role=Membership.Role.ANNOTATOR, code=f"W{i + 1}")
    for c in range(categories):
        category = Category.objects.create(project=project, name=f"cat{c}")
        Concept.objects.bulk_create(
            Concept(project=project, category=category, name=f"konsep{c}x{n}") for n in range(concepts)
        )
    return Setup(project=project, reviewers=staff, annotators=people)


def payload_for(concept: str, tag: str = "") -> dict[str, Any]:
    return {
        "question": f"Di mana orang biasanya menemukan {concept}?{' ' + tag if tag else ''}",
        "choices": ["Di pasar", "Di sawah", "Di laut", "Di gunung", "Di kota"],
        "answer": "A",
    }
