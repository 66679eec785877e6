"""One limiter per endpoint shared by every worker: at most `max_concurrency` requests in flight and
at most `requests_per_minute` started in any 60 s window, whatever the number of processes.

Redis (REDIS_URL): one Lua script takes a slot atomically. Slots are members of a sorted set scored
by their expiry (a lease, `lease_seconds`): a worker killed while holding slots does not leak them,
they expire. The per-minute budget is a sliding log (a sorted set of start times). Time is Redis'
own clock (TIME), so workers on different hosts agree. Waiting is polling with a short sleep and
jitter; the script returns how long to wait when the minute's budget is spent.
While slots are full a waiter blocks on a wake-up list (BLPOP) that every release pushes to, so a
freed slot is taken within a round trip; the WAKE_SECONDS timeout covers slots freed by lease expiry.

Without Redis (no worker: runs execute inside the process) the same rules hold in-process with a
condition variable. Celery's `rate_limit` is not used: it is per worker process.

Redis down (an outage, a restart) is not the endpoint's fault: every Redis operation here raises
`LimiterUnavailable`, which the engine treats as "not sent, try again shortly" (never as the call's
failure). Giving a slot back cannot fail: its lease expires anyway, and a reply already received must
not be lost over it.
"""

from __future__ import annotations

import logging
import random
import threading
import time
import uuid
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

import redis
from django.conf import settings

logger = logging.getLogger(__name__)
T = TypeVar("T")

PREFIX = "gotong:llm:limit"
POLL_SECONDS = (0.002, 0.01)
# Longest wait for a wake-up before trying again anyway (a slot can also free up by lease expiry, which
# nobody announces). Not shorter: two drainers of 32 threads share 32 slots, so half the threads wait
# all run long, and at 50 ms their polls cost each worker 1.3 CPU-seconds of a 10,000-call benchmark
# (bench/benchmark_runs.py: ratio 0.84-0.85 against 0.87-0.88 at 250 ms).
WAKE_SECONDS = 0.25

_ACQUIRE = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local slots, starts = KEYS[1], KEYS[2]
local limit, lease_ms, rpm, token = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), ARGV[4]
redis.call('ZREMRANGEBYSCORE', slots, '-inf', now)
if redis.call('ZCARD', slots) >= limit then return -1 end
if rpm > 0 then
  redis.call('ZREMRANGEBYSCORE', starts, '-inf', now - 60000)
  if redis.call('ZCARD', starts) >= rpm then
    local oldest = redis.call('ZRANGE', starts, 0, 0, 'WITHSCORES')
    return math.max(1, tonumber(oldest[2]) + 60000 - now)
  end
  redis.call('ZADD', starts, now, token)
  redis.call('PEXPIRE', starts, 61000)
end
redis.call('ZADD', slots, now + lease_ms, token)
redis.call('PEXPIRE', slots, lease_ms + 1000)
return 0
"""


# Release a slot and wake one waiter; the wake list is capped so tokens nobody waited for cannot pile up.
_RELEASE = """
if redis.call('ZREM', KEYS[1], ARGV[1]) == 1 then
  redis.call('LPUSH', KEYS[3], '1')
  redis.call('LTRIM', KEYS[3], 0, tonumber(ARGV[2]) - 1)
  redis.call('PEXPIRE', KEYS[3], 60000)
end
return 0
"""

# Extend a held slot's lease (a slot kept across several requests); 0 when it has expired meanwhile.
_REFRESH = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local expiry = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not expiry or tonumber(expiry) <= now then
  redis.call('ZREM', KEYS[1], ARGV[1])
  return 0
end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[1])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]) + 1000)
return 1
"""


class LimiterUnavailable(Exception):
    """Redis did not answer (refused, reset, timed out): nothing was taken; try again shortly."""


# Errors of the connection, not of our scripts (a Lua error is a bug and is raised as it is).
REDIS_DOWN = (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError)


def _redis_call(fn: Callable[[], T]) -> T:
    try:
        return fn()
    except REDIS_DOWN as exc:
        raise LimiterUnavailable(f"{type(exc).__name__}: {exc}") from exc


@dataclass(frozen=True)
class Limits:
    key: str  # the endpoint's id (or name): who shares the budget
    max_concurrency: int
    requests_per_minute: int | None = None
    lease_seconds: float = 120.0


class RedisLimiter:
    def __init__(self, url: str):
        self.redis = redis.Redis.from_url(url)
        self.script = self.redis.register_script(_ACQUIRE)
        self.release_script = self.redis.register_script(_RELEASE)
        self.refresh_script = self.redis.register_script(_REFRESH)

    def _keys(self, limits: Limits) -> list[str]:
        return [f"{PREFIX}:{limits.key}:slots", f"{PREFIX}:{limits.key}:starts"]

    def try_acquire(self, limits: Limits, token: str) -> float:
        """0 when taken; otherwise seconds to wait before trying again (a guess when slots are full)."""
        args = [limits.max_concurrency, int(limits.lease_seconds * 1000), limits.requests_per_minute or 0, token]
        answer = int(_redis_call(lambda: self.script(keys=self._keys(limits), args=args)))
        if answer == 0:
            return 0.0
        return random.uniform(*POLL_SECONDS) if answer < 0 else answer / 1000

    def release(self, limits: Limits, token: str) -> None:
        keys = [*self._keys(limits), self._wake(limits)]
        _redis_call(lambda: self.release_script(keys=keys, args=[token, limits.max_concurrency]))

    def refresh(self, limits: Limits, token: str) -> bool:
        """Extend the slot's lease; False when it had expired (the slot may be someone else's now)."""
        args = [token, int(limits.lease_seconds * 1000)]
        return bool(_redis_call(lambda: self.refresh_script(keys=self._keys(limits)[:1], args=args)))

    def _wake(self, limits: Limits) -> str:
        return f"{PREFIX}:{limits.key}:wake"

    def wait(self, limits: Limits, seconds: float) -> None:
        """Sleep until a slot is released (a wake-up token) or `seconds` pass: a free slot is taken
        within a Redis round trip instead of a poll interval."""
        _redis_call(lambda: self.redis.blpop([self._wake(limits)], timeout=max(0.001, seconds)))

    def in_flight(self, limits: Limits) -> int:
        slots = self._keys(limits)[0]
        now_ms = int(time.time() * 1000)
        return int(_redis_call(lambda: self.redis.zcount(slots, now_ms, "+inf")))

    def clear(self, limits: Limits) -> None:
        _redis_call(lambda: self.redis.delete(*self._keys(limits)))


class LocalLimiter:
    """The same limits inside one process (eager mode)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.freed = threading.Condition(self.lock)
        self.active: dict[str, set[str]] = {}
        self.starts: dict[str, deque[float]] = {}

    def try_acquire(self, limits: Limits, token: str) -> float:
        now = time.monotonic()
        with self.lock:
            active = self.active.setdefault(limits.key, set())
            if len(active) >= limits.max_concurrency:
                return random.uniform(*POLL_SECONDS)
            if limits.requests_per_minute:
                starts = self.starts.setdefault(limits.key, deque())
                while starts and starts[0] <= now - 60:
                    starts.popleft()
                if len(starts) >= limits.requests_per_minute:
                    return max(0.001, starts[0] + 60 - now)
                starts.append(now)
            active.add(token)
            return 0.0

    def release(self, limits: Limits, token: str) -> None:
        with self.lock:
            self.active.get(limits.key, set()).discard(token)
            self.freed.notify()

    def refresh(self, limits: Limits, token: str) -> bool:
        with self.lock:
            return token in self.active.get(limits.key, ())

    def wait(self, limits: Limits, seconds: float) -> None:
        with self.freed:
            self.freed.wait(seconds)

    def in_flight(self, limits: Limits) -> int:
        with self.lock:
            return len(self.active.get(limits.key, ()))

    def clear(self, limits: Limits) -> None:
        with self.lock:
            self.active.pop(limits.key, None)
            self.starts.pop(limits.key, None)


_limiter: RedisLimiter | LocalLimiter | None = None
_limiter_url: str | None = None
_lock = threading.Lock()


def get_limiter() -> RedisLimiter | LocalLimiter:
    """Redis when REDIS_URL is set (shared by all workers), else the in-process one."""
    global _limiter, _limiter_url
    broker = settings.CELERY_BROKER_URL or ""
    url = broker if broker.startswith("redis") and not settings.CELERY_TASK_ALWAYS_EAGER else ""
    with _lock:
        if _limiter is None or _limiter_url != url:
            _limiter = RedisLimiter(url) if url else LocalLimiter()
            _limiter_url = url
        return _limiter


def acquire(
    limits: Limits, *, limiter: RedisLimiter | LocalLimiter | None = None, give_up_after: float | None = None
) -> str:
    """Take one request slot of the endpoint (waiting for it); its token, for release()."""
    limiter = limiter or get_limiter()
    token = uuid.uuid4().hex
    deadline = None if give_up_after is None else time.monotonic() + give_up_after
    while True:
        wait = limiter.try_acquire(limits, token)
        if wait == 0:
            return token
        if deadline is not None and time.monotonic() + wait > deadline:
            raise TimeoutError(f"no request slot of endpoint {limits.key} within {give_up_after} s")
        if wait < POLL_SECONDS[1] * 2:
            limiter.wait(limits, WAKE_SECONDS)  # slots full: until one is released (or a safety poll)
        else:
            time.sleep(wait)  # the minute's budget is spent: Redis said how long


class KeptSlot:
    """The request slot one thread keeps between back-to-back requests to the same endpoint.

    Releasing after every request and queueing for a slot again costs two Redis round trips and a
    wake-up per request, and leaves the slot unused meanwhile; a thread with its next request ready
    keeps its slot instead (its lease extended now and then), and gives it back with drop() when it
    has nothing to send. Not under a per-minute budget: there every request must count as a start."""

    def __init__(self, limiter: RedisLimiter | LocalLimiter | None = None) -> None:
        self.limiter = limiter
        self.limits: Limits | None = None
        self.token: str | None = None
        self.refreshed = 0.0

    def take(self, limits: Limits, *, give_up_after: float | None = None) -> None:
        """Hold a slot of `limits`' endpoint: the one kept if it is still ours, else a new one."""
        limiter = self.limiter = self.limiter or get_limiter()
        if self.token is not None and self.limits == limits and not limits.requests_per_minute:
            if time.monotonic() - self.refreshed < limits.lease_seconds / 3:
                return
            if limiter.refresh(limits, self.token):
                self.refreshed = time.monotonic()
                return
            self.token = None  # expired meanwhile: queue for a new one
        self.drop()
        self.token = acquire(limits, limiter=limiter, give_up_after=give_up_after)
        self.limits, self.refreshed = limits, time.monotonic()

    def done(self) -> None:
        """A request finished: under a per-minute budget the slot goes back at once."""
        if self.limits is not None and self.limits.requests_per_minute:
            self.drop()

    def drop(self) -> None:
        if self.token is not None and self.limits is not None and self.limiter is not None:
            try:
                self.limiter.release(self.limits, self.token)
            except LimiterUnavailable:  # the slot's lease expires on its own
                logger.warning("llm_limiter.release_failed", extra={"key": self.limits.key}, exc_info=True)
        self.token = None
