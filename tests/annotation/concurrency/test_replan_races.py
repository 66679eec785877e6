"""Re-planning while an annotator claims work: a claim that commits first is never undone."""

import threading
import time

import pytest
from django.db import connection, transaction

from annotation.models import Assignment, Concept, Membership
from annotation.planning import Unit, plan_balanced
from annotation.services.assignments import assignment_claim_next, assignment_plan_authoring
from annotation.services.projects import membership_add
from tests.annotation.concurrency.helpers import make_project, make_user

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def _join_that_moves(project) -> tuple[int, object, Assignment]:
    """A seed under which, once a newcomer joins, some annotator's first pending assignment moves to
    someone else (pure planner, no DB writes): the annotator who will claim it, and that assignment."""
    units = [
        Unit(id=cid, group=cat) for cid, cat in Concept.objects.filter(project=project).values_list("id", "category_id")
    ]
    workers = list(Membership.objects.filter(project=project, role="annotator").values_list("user_id", flat=True))
    pending = list(Assignment.objects.filter(project=project).order_by("position", "id"))
    preferred: dict[int, set[int]] = {}
    for a in pending:
        preferred.setdefault(a.concept_id, set()).add(a.user_id)
    firsts = {}
    for a in pending:
        firsts.setdefault(a.user_id, a)
    for seed in range(1, 100):
        slots = plan_balanced(units=units, workers=workers, per_unit=2, seed=seed, preferred=preferred)
        kept = {(s.unit_id, s.worker_id) for s in slots}
        for user_id, first in sorted(firsts.items()):
            if (first.concept_id, user_id) not in kept:
                return seed, first.user, first
    raise AssertionError("no seed moves an annotator's first assignment")


def _wait_until_blocked_on_a_lock(timeout: float = 20) -> None:
    deadline = time.monotonic() + timeout
    with connection.cursor() as cursor:
        while time.monotonic() < deadline:
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'"
            )
            if cursor.fetchone()[0]:
                return
            time.sleep(0.02)
    raise AssertionError("the planner never waited for the claimed row")


def test_replanning_never_removes_an_assignment_claimed_while_it_ran():
    setup = make_project(slug="replan", annotators=4, categories=2, concepts=6)
    assignment_plan_authoring(project=setup.project)
    newcomer = make_user("replan-newcomer")
    membership_add(project=setup.project, user=newcomer, role=Membership.Role.ANNOTATOR)
    seed, annotator, first = _join_that_moves(setup.project)
    claimed, release, errors, summaries = [], threading.Event(), [], []

    def claim_and_hold() -> None:
        # The claim's transaction stays open until the planner has read the row as pending.
        try:
            with transaction.atomic():
                claimed.append(assignment_claim_next(project=setup.project, user=annotator, kind="author"))
                release.wait(30)
        except BaseException as exc:  # noqa: BLE001
            errors.append(exc)
        finally:
            connection.close()

    def replan() -> None:
        try:
            summaries.append(assignment_plan_authoring(project=setup.project, seed=seed))
        except BaseException as exc:  # noqa: BLE001
            errors.append(exc)
        finally:
            connection.close()

    claimer = threading.Thread(target=claim_and_hold)
    claimer.start()
    while not claimed and claimer.is_alive():
        time.sleep(0.01)
    planner = threading.Thread(target=replan)
    planner.start()
    _wait_until_blocked_on_a_lock()
    release.set()
    claimer.join(30)
    planner.join(30)

    assert errors == []
    assert claimed[0].pk == first.pk
    kept = Assignment.objects.filter(pk=first.pk).values_list("user_id", "concept_id", "status").first()
    assert kept == (annotator.pk, first.concept_id, Assignment.Status.ACTIVE)
    # The new plan gave the concept to two others before the claim was visible; the claim is kept too.
    authors = dict(Assignment.objects.filter(concept_id=first.concept_id).values_list("user_id", "status"))
    assert authors.pop(annotator.pk) == Assignment.Status.ACTIVE
    assert list(authors.values()) == [Assignment.Status.PENDING] * 2
    total = Assignment.objects.filter(project=setup.project).count()
    assert total == 2 * 12 + 1
    assert summaries[0].kept + summaries[0].created == 2 * 12
