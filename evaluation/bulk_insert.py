"""Inserting many rows in one statement: the rows travel as one JSON document and PostgreSQL spreads
them into columns (`INSERT ... SELECT ... FROM jsonb_to_recordset(%s)`), with ON CONFLICT DO NOTHING
when asked.

Why not bulk_create: Django 5.2 sends a bulk insert on PostgreSQL as one array per column (UNNEST),
and psycopg builds those arrays value by value in Python; for a benchmark's 10,000 calls and 5,000
cases that was most of the plan's time (bench/benchmark_runs.py). Here the whole batch is encoded by
the json module's C encoder and the server does the rest. Other databases get bulk_create.

Every row names the same columns (attnames: "run_id", not "run"); columns left out take the model
field's default, computed once per batch (auto_now_add fields: the current time).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from django.db import connection
from django.db.models import Model
from django.utils import timezone

BATCH = 5000


def _defaults(model: type[Model], given: set[str]) -> dict[str, Any]:
    now = timezone.now()
    defaults = {}
    for field in model._meta.concrete_fields:
        if field.primary_key or field.attname in given:
            continue
        if getattr(field, "auto_now_add", False) or getattr(field, "auto_now", False):
            defaults[field.attname] = now
        elif field.has_default() or not field.null:
            defaults[field.attname] = field.get_default()
        else:
            defaults[field.attname] = None
    return defaults


def _encode(value: Any) -> Any:
    if hasattr(value, "isoformat"):
        return value.isoformat()
    return str(value)  # Decimal


def insert_rows(model: type[Model], rows: Sequence[dict[str, Any]], *, ignore_conflicts: bool = False) -> None:
    if not rows:
        return
    if connection.vendor != "postgresql":
        model.objects.bulk_create([model(**row) for row in rows], ignore_conflicts=ignore_conflicts)
        return
    defaults = _defaults(model, set(rows[0]))
    fields = [model._meta.get_field(name) for name in [*rows[0], *defaults]]
    quote = connection.ops.quote_name
    columns = ", ".join(quote(f.column) for f in fields)
    # A column's type in the record is the column's own (a foreign key: its target's), so the values
    # arrive typed; JSON fields stay jsonb.
    types = ", ".join(f"{quote(f.column)} {f.db_type(connection)}" for f in fields)
    conflict = " ON CONFLICT DO NOTHING" if ignore_conflicts else ""
    sql = (
        f"INSERT INTO {quote(model._meta.db_table)} ({columns}) "
        f"SELECT {columns} FROM jsonb_to_recordset(%s::jsonb) AS x({types}){conflict}"
    )
    with connection.cursor() as cursor:
        for start in range(0, len(rows), BATCH):
            batch = rows[start : start + BATCH]
            document = json.dumps([{**row, **defaults} for row in batch], ensure_ascii=False, default=_encode)
            cursor.execute(sql, [document])
