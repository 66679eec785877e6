"""Re-planning while an annotator claims work: a claim that commits first is never undone."""

import threading
import time

import pytest
from django.db import connection, transaction

from annotation.models import Assignment, Concept, Membership
from annotation.planning import Unit, plan_balanced
from annotation.services.assignments import assignment_claim_next, assignment_plan_authoring
from tests.annotation.concurrency.helpers import make_project

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def _seed_that_moves(project, assignment) -> int:
    """A seed whose plan gives the assignment's concept to other annotators (pure planner, no DB writes)."""
    units = [
        Unit(id=cid, group=cat) for cid, cat in Concept.objects.filter(project=project).values_list("id", "category_id")
    ]
    workers = list(Membership.objects.filter(project=project, role="annotator").values_list("user_id", flat=True))
    for seed in range(1, 100):
        slots = plan_balanced(units=units, workers=workers, per_unit=2, seed=seed)
        if (assignment.concept_id, assignment.user_id) not in {(s.unit_id, s.worker_id) for s in slots}:
            return seed
    raise AssertionError("no seed moves the assignment")


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
    annotator = setup.annotators[0]
    first = Assignment.objects.filter(project=setup.project, user=annotator).order_by("position", "id").first()
    seed = _seed_that_moves(setup.project, first)
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
