"""Every importer reads its file row by row: reading a file four times larger takes hardly more memory.

The importers are pure (no database): their two passes (scan, then records) are run here under
tracemalloc on files of 500 and 2,000 rows of over 1 kB. A parser that held the file (a preference
file held whole took 759 MB for 52 MB) grows by several times the added bytes; a streaming one by the
little it keeps per row (the ids it has seen). The whole import at 50 MB, database included, is measured by
bench/import_memory.py.
"""

from __future__ import annotations

import io
import tracemalloc

import pytest

from annotation.importing import jsonstream
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
def test_a_four_times_larger_file_takes_hardly_more_memory(format_name, monkeypatch):
    # JSON is read 1 MB at a time: with 64 kB pieces both files are many pieces long, as large files are.
    monkeypatch.setattr(jsonstream, "CHUNK", 64 * 1024)
    small, large = _file(format_name, 500), _file(format_name, 2000)

    small_peak, large_peak = _peak_bytes(format_name, small), _peak_bytes(format_name, large)

    # The file itself is not traced (the BytesIO is made before): what may grow is what an importer keeps
    # per row (the ids it has seen, ~250 bytes), never the rows' text (over 1,000 bytes each).
    assert (len(large) - len(small)) / 1500 > 1000
    assert (large_peak - small_peak) / 1500 < 400, (small_peak, large_peak)
