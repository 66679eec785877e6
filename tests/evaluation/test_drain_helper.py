"""A helper drainer leaves only when a claim finds nothing, not while it waits to ask again."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, transaction

from evaluation.calls import run_plan
from evaluation.engine import CLAIM_BACKOFF_SECONDS, drain
from evaluation.kinds import get_kind
from evaluation.models import Call, Run
from evaluation.services.runs import run_create
from qc.runs import run_take
from tests.evaluation.helpers import make_endpoint, runs_stay_pending

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_helper_whose_claim_came_back_short_asks_again_before_it_leaves(llm_server, eager_tasks):
    endpoint = make_endpoint(llm_server, max_concurrency=4)
    with runs_stay_pending():
        run = run_create(
            kind="responses", endpoints=[endpoint], parameters={"prompts": [f"Soal {i}" for i in range(5)]}
        )
    taken = run_take(model=Run, run_id=run.pk, task_id="owner")
    assert run_plan(run_id=run.pk, attempt=taken.attempt, kind=get_kind("responses"))
    held = list(Call.objects.filter(run=run).order_by("pk").values_list("pk", flat=True)[:3])
    locked, release = threading.Event(), threading.Event()

    def hold_three_calls() -> None:
        # Another drainer's claim in progress: its rows are skipped (SKIP LOCKED), so this helper's
        # first claim comes back with 2 of the 5 calls, and they are answered long before the backoff ends.
        try:
            with transaction.atomic():
                list(Call.objects.select_for_update().filter(pk__in=held))
                locked.set()
                release.wait(CLAIM_BACKOFF_SECONDS / 2)
        finally:
            connection.close()

    holder = threading.Thread(target=hold_three_calls)
    holder.start()
    assert locked.wait(10)
    try:
        tally = drain(run_id=run.pk)  # a helper: no owner attempt
    finally:
        release.set()
        holder.join()

    assert (tally.done, tally.failed) == (5, 0)
    assert sorted(Call.objects.filter(run=run).values_list("status", flat=True)) == ["done"] * 5
    assert llm_server.stats()["chat"] == 5
