"""A run's plan is committed in steps: helpers are sent once the first step is there, a run lost half-way
stops planning, and planning again (a resumed owner) adds only what is missing."""

from __future__ import annotations

import pytest
from django.db import connection

from evaluation.calls import FIRST_PLAN_STEP, PLAN_BATCH, run_plan
from evaluation.kinds import get_kind
from evaluation.models import Call, Run
from evaluation.services.runs import run_create, run_pause
from qc.runs import run_take
from tests.evaluation.helpers import make_endpoint, runs_stay_pending

pytestmark = pytest.mark.django_db(transaction=True)

PROMPTS = FIRST_PLAN_STEP + 2 * PLAN_BATCH + 7


def _pending_run(llm_server, prompts: int = PROMPTS) -> Run:
    endpoint = make_endpoint(llm_server)
    with runs_stay_pending():
        return run_create(
            kind="responses", endpoints=[endpoint], parameters={"prompts": [f"Soal {i}" for i in range(prompts)]}
        )


def _state(run: Run) -> tuple[int, bool, int | None]:
    run.refresh_from_db()
    return Call.objects.filter(run=run).count(), run.planned_at is not None, run.total


def test_helpers_are_sent_once_the_first_step_is_committed_and_the_plan_ends_with_its_total(llm_server):
    run = _pending_run(llm_server)
    taken = run_take(model=Run, run_id=run.pk, task_id="owner")
    seen = []

    def first_step() -> None:
        seen.append((connection.in_atomic_block, *_state(run)))

    assert run_plan(run_id=run.pk, attempt=taken.attempt, kind=get_kind("responses"), on_first_step=first_step)

    # Committed (no transaction open), not yet planned: a helper finds the first calls and drains them.
    assert seen == [(False, FIRST_PLAN_STEP, False, None)]
    assert _state(run) == (PROMPTS, True, PROMPTS)
    assert Call.objects.filter(run=run).values("unit_key").distinct().count() == PROMPTS


def test_a_plan_shorter_than_its_first_step_sends_the_helpers_once_it_is_whole(llm_server):
    run = _pending_run(llm_server, prompts=3)
    taken = run_take(model=Run, run_id=run.pk, task_id="owner")
    seen = []

    assert run_plan(
        run_id=run.pk, attempt=taken.attempt, kind=get_kind("responses"), on_first_step=lambda: seen.append(_state(run))
    )

    assert seen == [(3, True, 3)]


def test_a_run_paused_during_its_plan_stops_planning_and_a_resumed_owner_adds_only_what_is_missing(llm_server):
    run = _pending_run(llm_server)
    kind = get_kind("responses")
    taken = run_take(model=Run, run_id=run.pk, task_id="owner")

    planned = run_plan(run_id=run.pk, attempt=taken.attempt, kind=kind, on_first_step=lambda: run_pause(run=run))

    assert planned is False
    assert _state(run) == (FIRST_PLAN_STEP, False, None)
    assert run.status == Run.Status.PAUSED

    # Resumed: a new attempt plans again; the first step's calls are kept, not doubled.
    Run.objects.filter(pk=run.pk).update(status=Run.Status.PENDING)
    first_ids = set(Call.objects.filter(run=run).values_list("pk", flat=True))
    again = run_take(model=Run, run_id=run.pk, task_id="second owner")
    sent = []
    assert run_plan(run_id=run.pk, attempt=again.attempt, kind=kind, on_first_step=lambda: sent.append(1))
    assert _state(run) == (PROMPTS, True, PROMPTS)
    assert first_ids <= set(Call.objects.filter(run=run).values_list("pk", flat=True))
    assert sent == [1]


def test_a_planned_run_taken_again_sends_its_helpers_without_planning(llm_server):
    run = _pending_run(llm_server, prompts=5)
    kind = get_kind("responses")
    taken = run_take(model=Run, run_id=run.pk, task_id="owner")
    assert run_plan(run_id=run.pk, attempt=taken.attempt, kind=kind)
    ids = sorted(Call.objects.filter(run=run).values_list("pk", flat=True))
    sent = []

    assert run_plan(run_id=run.pk, attempt=taken.attempt, kind=kind, on_first_step=lambda: sent.append(1))

    assert sent == [1]
    assert sorted(Call.objects.filter(run=run).values_list("pk", flat=True)) == ids
