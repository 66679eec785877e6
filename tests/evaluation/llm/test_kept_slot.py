"""KeptSlot: a thread keeps its request slot between back-to-back requests, in Redis as every worker
sees it, and the endpoint's limits hold all the same."""

from __future__ import annotations

import os
import threading
import time
import uuid

import pytest

from evaluation.llm.limiter import KeptSlot, Limits, LocalLimiter, RedisLimiter

pytestmark = pytest.mark.celery


@pytest.fixture
def redis_limiter():
    url = os.environ.get("REDIS_URL", "")
    assert url.startswith("redis://"), "these tests need Redis (set REDIS_URL)"
    limiter = RedisLimiter(url)
    limiter.redis.ping()
    return limiter


def limits(**extra) -> Limits:
    return Limits(key=f"test-{uuid.uuid4().hex}", max_concurrency=2, **extra)


def test_a_kept_slot_is_one_slot_across_requests_until_dropped(redis_limiter):
    endpoint = limits()
    kept = KeptSlot(redis_limiter)
    kept.take(endpoint)
    first = kept.token
    for _ in range(3):
        kept.done()
        kept.take(endpoint)
    assert kept.token == first
    assert redis_limiter.in_flight(endpoint) == 1
    kept.drop()
    assert (kept.token, redis_limiter.in_flight(endpoint)) == (None, 0)
    redis_limiter.clear(endpoint)


def test_another_endpoint_gets_its_own_slot_and_the_first_goes_back(redis_limiter):
    one, two = limits(), limits()
    kept = KeptSlot(redis_limiter)
    kept.take(one)
    kept.take(two)
    assert (redis_limiter.in_flight(one), redis_limiter.in_flight(two)) == (0, 1)
    kept.drop()
    redis_limiter.clear(two)


def test_an_old_slot_is_refreshed_and_an_expired_one_replaced(redis_limiter, monkeypatch):
    endpoint = limits(lease_seconds=0.3)
    kept = KeptSlot(redis_limiter)
    kept.take(endpoint)
    first = kept.token
    time.sleep(0.15)  # past a third of the lease: the next take extends it in Redis
    kept.take(endpoint)
    assert kept.token == first
    time.sleep(0.2)  # 0.35 s after taking it, but extended at 0.15 s: still ours
    assert redis_limiter.in_flight(endpoint) == 1
    time.sleep(0.4)  # now expired (a stalled thread): the slot is not ours any more
    assert redis_limiter.in_flight(endpoint) == 0
    kept.take(endpoint)
    assert kept.token != first
    assert redis_limiter.in_flight(endpoint) == 1
    kept.drop()
    redis_limiter.clear(endpoint)


def test_under_a_per_minute_budget_every_request_takes_and_returns_a_slot():
    limiter = LocalLimiter()
    endpoint = Limits(key="rpm", max_concurrency=2, requests_per_minute=3)
    kept = KeptSlot(limiter)
    for _ in range(3):
        kept.take(endpoint, give_up_after=1)
        assert limiter.in_flight(endpoint) == 1
        kept.done()
        assert limiter.in_flight(endpoint) == 0
    # The fourth request of the minute is over budget: refused, not sent on a kept slot.
    with pytest.raises(TimeoutError):
        kept.take(endpoint, give_up_after=1)


def test_threads_keeping_slots_never_exceed_the_limit(redis_limiter):
    endpoint = limits()
    most = 0
    seen_lock = threading.Lock()
    in_request = 0

    def worker():
        nonlocal most, in_request
        kept = KeptSlot(redis_limiter)
        for n in range(20):
            kept.take(endpoint, give_up_after=10)
            with seen_lock:
                in_request += 1
                most = max(most, in_request)
            time.sleep(0.002)
            with seen_lock:
                in_request -= 1
            kept.done()
            if n % 5 == 4:
                kept.drop()  # nothing ready for a moment: others get the slot
        kept.drop()

    threads = [threading.Thread(target=worker) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert most == 2
    assert redis_limiter.in_flight(endpoint) == 0
    redis_limiter.clear(endpoint)
