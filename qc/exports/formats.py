"""The export engine's writers: JSON Lines, CSV and Parquet, each over the task type's rows.

The task type says what a row is (export_fields, export_row, optionally export_jsonl as a fast path)
and its Parquet schema; the writers only encode. CSV cells that a spreadsheet would run as a formula
are neutralised here, for every task type.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

from annotation.task_types.base import ExportRecord, TaskType

CSV_DANGEROUS = ("=", "+", "-", "@", "\t", "\r")


def neutralise_csv_cell(value: str) -> str:
    """A cell a spreadsheet would run as a formula gets a leading quote (CSV/formula injection)."""
    return "'" + value if value.startswith(CSV_DANGEROUS) else value


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


class JsonlWriter:
    def __init__(self, path: Path, task_type: TaskType):
        self.file = path.open("w", encoding="utf-8", newline="\n")
        self.task_type = task_type

    def write(self, record: ExportRecord) -> None:
        line = self.task_type.export_jsonl(record)
        if line is None:
            line = _dumps(self.task_type.export_row(record))
        self.file.write(line + "\n")

    def close(self) -> None:
        self.file.close()


class CsvWriter:
    """Nested fields are JSON text; every text cell is neutralised against formula injection."""

    def __init__(self, path: Path, task_type: TaskType):
        self.file = path.open("w", encoding="utf-8", newline="")
        self.writer = csv.writer(self.file)
        self.task_type = task_type
        self.fields = task_type.export_fields
        self.writer.writerow(self.fields)

    def write(self, record: ExportRecord) -> None:
        row = self.task_type.export_row(record)
        cells = []
        for name in self.fields:
            value = row[name]
            cells.append(neutralise_csv_cell(value if isinstance(value, str) else _dumps(value)))
        self.writer.writerow(cells)

    def close(self) -> None:
        self.file.close()


class ParquetWriter:
    def __init__(self, path: Path, task_type: TaskType, buffer_rows: int):
        import pyarrow.parquet as pq  # imported on use: ~50 MB that JSON Lines and CSV exports don't need

        self.schema = task_type.parquet_schema()
        self.writer = pq.ParquetWriter(path, self.schema)
        self.task_type = task_type
        self.buffer: list[dict[str, Any]] = []
        self.buffer_rows = buffer_rows

    def write(self, record: ExportRecord) -> None:
        self.buffer.append(self.task_type.export_row(record))
        if len(self.buffer) >= self.buffer_rows:
            self.flush()

    def flush(self) -> None:
        if self.buffer:
            import pyarrow as pa

            self.writer.write_table(pa.Table.from_pylist(self.buffer, schema=self.schema))
            self.buffer = []

    def close(self) -> None:
        self.flush()
        self.writer.close()


def open_writer(fmt: str, path: Path, task_type: TaskType, buffer_rows: int):
    if fmt == "jsonl":
        return JsonlWriter(path, task_type)
    if fmt == "csv":
        return CsvWriter(path, task_type)
    return ParquetWriter(path, task_type, buffer_rows)
