"""The limiter's Redis down is our outage, not the model's failure: LimiterUnavailable, a call that is
not sent and goes back to pending without using an attempt, and a slot given back without an error."""

from __future__ import annotations

import uuid
from datetime import timedelta

import pytest
from django.utils import timezone

from evaluation.calls import call_execute, calls_add, calls_claim
from evaluation.kinds import get_kind
from evaluation.llm import client as llm
from evaluation.llm.limiter import KeptSlot, LimiterUnavailable, Limits, RedisLimiter
from evaluation.models import Call, Run
from evaluation.results import INFRA_RETRY_SECONDS, results_write
from evaluation.services.runs import run_create
from tests.celery_workers import free_port
from tests.evaluation.helpers import make_endpoint, runs_stay_pending

pytestmark = pytest.mark.celery


def _limits() -> Limits:
    return Limits(key=f"test-{uuid.uuid4().hex}", max_concurrency=1, lease_seconds=10)


def test_a_redis_that_does_not_answer_is_limiter_unavailable():
    limiter = RedisLimiter(f"redis://127.0.0.1:{free_port()}/0")

    with pytest.raises(LimiterUnavailable, match="Connection refused"):
        limiter.try_acquire(_limits(), "token")
    with pytest.raises(LimiterUnavailable):
        KeptSlot(limiter).take(_limits(), give_up_after=1)


def test_a_kept_slot_is_given_back_without_error_when_redis_died_meanwhile(redis_server):
    limiter = RedisLimiter(redis_server.url)
    kept = KeptSlot(limiter)
    kept.take(_limits())
    redis_server.kill()

    kept.drop()  # the reply it guarded must not be lost over the release: its lease expires

    assert kept.token is None


@pytest.mark.django_db(transaction=True)
def test_a_call_the_limiter_cannot_admit_is_not_sent_and_goes_back_without_using_an_attempt(llm_server):
    endpoint = make_endpoint(llm_server)
    with runs_stay_pending():
        run = run_create(kind="responses", endpoints=[endpoint], parameters={"prompts": ["Apa kabar?"]})
    Run.objects.filter(pk=run.pk).update(status=Run.Status.RUNNING)
    calls_add(run=run, units=list(get_kind("responses").units(run)))
    [claimed] = calls_claim(run_id=run.pk, limit=10, lease_seconds=120)
    dead = KeptSlot(RedisLimiter(f"redis://127.0.0.1:{free_port()}/0"))

    outcome = call_execute(claimed, endpoint, llm.EndpointConfig.of(endpoint), _limits(), call_lease=120, kept=dead)
    before = timezone.now()
    tally = results_write(
        run=run, kind=get_kind("responses"), endpoints={endpoint.pk: endpoint}, results=[(claimed, outcome)]
    )

    call = Call.objects.get(pk=claimed.pk)
    run.refresh_from_db()
    assert (outcome.limiter_down, outcome.result, outcome.error) == (True, None, None)
    assert llm_server.stats()["requests"] == 0
    assert (call.status, call.attempts, call.error, call.error_kind, call.lease_token) == ("pending", 0, "", "", "")
    assert before < call.next_attempt_at <= timezone.now() + timedelta(seconds=INFRA_RETRY_SECONDS)
    assert (tally.done, tally.failed, run.calls_failed, run.progress) == (0, 0, 0, 0)
