"""Bulk helpers: itertools.batched for Python 3.11 (it arrived in 3.12), and fewer GC passes in bulk loops."""

from __future__ import annotations

import gc
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from itertools import islice
from typing import TypeVar

T = TypeVar("T")


def batched(iterable: Iterable[T], n: int) -> Iterator[tuple[T, ...]]:
    if n < 1:
        raise ValueError("n must be at least one")
    it = iter(iterable)
    while batch := tuple(islice(it, n)):
        yield batch


@contextmanager
def fewer_gc_passes() -> Iterator[None]:
    """Collect the young generation every 100,000 allocations instead of 700 inside a bulk loop.

    Exports and gold recomputes allocate a few tracked objects per judgment (records, their dicts) and
    free them batch by batch through reference counts: they form no cycles, yet the default threshold
    runs a collection every few hundred of them. Measured on an export of 100,000 items with 500,000
    judgments: ~1 s of ~4 s. Thresholds are per process and restored afterwards."""
    before = gc.get_threshold()
    gc.set_threshold(100_000, *before[1:])
    try:
        yield
    finally:
        gc.set_threshold(*before)
