"""Linear time, checked on a loaded machine too: the time of an input ten times longer is compared with the
time of the short one (a linear reader takes about 10 times as long, a quadratic one about 100 times),
instead of with a fixed number of seconds, which a busy CI machine can exceed."""

from __future__ import annotations

import time
from collections.abc import Callable


def best_of_three(call: Callable[[], object]) -> float:
    """The least of three timings: the other processes' noise only ever adds time."""
    timings = []
    for _ in range(3):
        started = time.perf_counter()
        call()
        timings.append(time.perf_counter() - started)
    return min(timings)


def assert_linear(read: Callable[[str], object], make: Callable[[int], str], length: int = 100_000) -> None:
    """`read` of `make(length)` takes less than 30 times `read` of `make(length // 10)`, with 20 ms of slack
    for inputs read too fast to time."""
    short, long = make(length // 10), make(length)
    took_short = best_of_three(lambda: read(short))
    took_long = best_of_three(lambda: read(long))
    assert took_long < 30 * took_short + 0.02, (
        f"{took_long:.3f}s for {length} characters, {took_short:.3f}s for a tenth"
    )
