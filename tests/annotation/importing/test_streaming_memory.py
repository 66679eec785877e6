"""Every importer reads its file row by row: reading a file four times larger takes hardly more memory.

The importers are pure (no database): their two passes (scan, then records) are run here under
tracemalloc on a ~1 MB and a ~4 MB file. A parser that held the file (a preference file held whole
took 759 MB for 52 MB) grows by several times the added bytes; a streaming one by the little it keeps
per row (the ids it has seen). The whole import at 50 MB, database included, is measured by
bench/import_memory.py.
"""

from __future__ import annotations

import io
import tracemalloc

import pytest

from annotation.services.imports import import_format
from tests.annotation.importing.samples import SAMPLES

PAD = "panjang " * 125  # 1,000 characters: rows of ~1 kB, so a file's size is mostly its text


def _file(format_name: str, rows: int) -> bytes:
    sample = SAMPLES[format_name]
    return sample.file([sample.long_row(n, PAD) for n in range(1, rows + 1)])


def _peak_bytes(format_name: str, data: bytes) -> int:
    importer = import_format(format_name).importer
    stream = io.BytesIO(data)
    tracemalloc.start()
    try:
        scan = importer.scan(stream, known_annotators=(), max_annotators=200)
        stream.seek(0)
        for _ in importer.records(stream, scan=scan):
            pass
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize("format_name", sorted(SAMPLES))
def test_a_four_times_larger_file_takes_hardly_more_memory(format_name):
    small, large = _file(format_name, 1000), _file(format_name, 4000)

    small_peak, large_peak = _peak_bytes(format_name, small), _peak_bytes(format_name, large)

    # The file itself is not held (the BytesIO is not traced): what grows is per-row bookkeeping only.
    assert len(large) - len(small) > 3_000_000
    assert large_peak - small_peak < (len(large) - len(small)) / 5, (small_peak, large_peak)
