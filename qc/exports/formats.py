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
from qc.csv_cells import neutralise_csv_cell


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


# Every row of every format names its item's language, so a release of several languages can be split
# by it. The core adds the field after the task type's own ones, unless the task type already has a
# `language` of its own (it then says which).
LANGUAGE = "language"


def adds_language(task_type: TaskType) -> bool:
    return LANGUAGE not in task_type.export_fields


# The aggregation model's posterior ({label: probability}) beside the task type's published gold, on
# every row of a project with a fit (null where the item had no judgments to fit).
LABEL_POSTERIOR = "label_posterior"


def export_row_with_language(
    task_type: TaskType, record: ExportRecord, adds: bool, posteriors: bool = False
) -> dict[str, Any]:
    row = task_type.export_row(record)
    if adds:
        row[LANGUAGE] = record.item.language
    if posteriors:
        row[LABEL_POSTERIOR] = record.posterior
    return row


class JsonlWriter:
    def __init__(self, path: Path, task_type: TaskType, posteriors: bool = False):
        self.file = path.open("w", encoding="utf-8", newline="\n")
        self.task_type = task_type
        self.adds = adds_language(task_type)
        self.posteriors = posteriors

    def write(self, record: ExportRecord) -> None:
        line = self.task_type.export_jsonl(record)
        if line is None:
            line = _dumps(export_row_with_language(self.task_type, record, self.adds, self.posteriors))
        else:  # the task type's fast path: its object gets more keys, without a re-encode
            if self.adds:
                line = f'{line[:-1]}, "{LANGUAGE}": {_dumps(record.item.language)}}}' if line != "{}" else line
            if self.posteriors:
                line = f'{line[:-1]}, "{LABEL_POSTERIOR}": {_dumps(record.posterior)}}}' if line != "{}" else line
        self.file.write(line + "\n")

    def close(self) -> None:
        self.file.close()


class CsvWriter:
    """Nested fields are JSON text; every text cell is neutralised against formula injection."""

    def __init__(self, path: Path, task_type: TaskType, posteriors: bool = False):
        self.file = path.open("w", encoding="utf-8", newline="")
        self.writer = csv.writer(self.file)
        self.task_type = task_type
        self.adds = adds_language(task_type)
        self.posteriors = posteriors
        self.fields = (
            task_type.export_fields + ((LANGUAGE,) if self.adds else ()) + ((LABEL_POSTERIOR,) if posteriors else ())
        )
        self.writer.writerow(self.fields)

    def write(self, record: ExportRecord) -> None:
        row = export_row_with_language(self.task_type, record, self.adds, self.posteriors)
        cells = []
        for name in self.fields:
            value = row[name]
            if name == LABEL_POSTERIOR and value is None:
                cells.append("")
                continue
            cells.append(neutralise_csv_cell(value if isinstance(value, str) else _dumps(value)))
        self.writer.writerow(cells)

    def close(self) -> None:
        self.file.close()


class ParquetWriter:
    def __init__(self, path: Path, task_type: TaskType, buffer_rows: int, posteriors: bool = False):
        import pyarrow as pa
        import pyarrow.parquet as pq  # imported on use: ~50 MB that JSON Lines and CSV exports don't need

        self.adds = adds_language(task_type)
        self.posteriors = posteriors
        self.schema = task_type.parquet_schema()
        if self.adds:
            self.schema = self.schema.append(pa.field(LANGUAGE, pa.string()))
        if posteriors:
            self.schema = self.schema.append(pa.field(LABEL_POSTERIOR, pa.map_(pa.string(), pa.float64())))
        self.writer = pq.ParquetWriter(path, self.schema)
        self.task_type = task_type
        self.buffer: list[dict[str, Any]] = []
        self.buffer_rows = buffer_rows

    def write(self, record: ExportRecord) -> None:
        self.buffer.append(export_row_with_language(self.task_type, record, self.adds, self.posteriors))
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


def open_writer(fmt: str, path: Path, task_type: TaskType, buffer_rows: int, *, posteriors: bool = False):
    if fmt == "jsonl":
        return JsonlWriter(path, task_type, posteriors)
    if fmt == "csv":
        return CsvWriter(path, task_type, posteriors)
    return ParquetWriter(path, task_type, buffer_rows, posteriors)
