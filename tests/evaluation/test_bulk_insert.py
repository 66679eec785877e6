"""evaluation.bulk_insert.insert_rows: one INSERT ... SELECT FROM jsonb_to_recordset on PostgreSQL.

The rows it writes must read back exactly as bulk_create would have written them: typed columns,
JSON values kept as JSON (objects, lists, strings), field defaults and the creation time filled in,
conflicts skipped only when asked."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

import pytest
from django.db import IntegrityError, connection
from django.utils import timezone

from evaluation.bulk_insert import insert_rows
from evaluation.models import Call, Endpoint, Run

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres]


@pytest.fixture
def run(db):
    assert connection.vendor == "postgresql", "insert_rows' own path needs PostgreSQL (set DATABASE_URL)"
    endpoint = Endpoint.objects.create(name="e", base_url="https://api.example.org/v1", model="m")
    return Run.objects.create(kind="generation"), endpoint


def test_rows_read_back_typed_with_defaults_and_creation_time(run):
    run, endpoint = run
    before = timezone.now()
    due = before + timedelta(minutes=5)
    insert_rows(
        Call,
        [
            {
                "run_id": run.pk,
                "endpoint_id": endpoint.pk,
                "unit_key": "item1",
                "template": "helm",
                "operation": "chat",
                "request": {"messages": [{"role": "user", "content": "Apa itu \u201crendang\u201d?"}], "n": 1},
                "next_attempt_at": due,
                "cost": Decimal("0.00012345"),
            },
            {
                "run_id": run.pk,
                "endpoint_id": endpoint.pk,
                "unit_key": "item2",
                "template": "",
                "operation": "score",
                "request": "a plain JSON string",
                "next_attempt_at": None,
                "cost": None,
            },
        ],
    )
    first, second = Call.objects.filter(run=run).order_by("unit_key")
    assert first.request == {"messages": [{"role": "user", "content": "Apa itu \u201crendang\u201d?"}], "n": 1}
    assert second.request == "a plain JSON string"
    assert (first.next_attempt_at, second.next_attempt_at) == (due, None)
    assert (first.cost, second.cost) == (Decimal("0.00012345"), None)
    # Left out: the model's defaults, and None for nullable fields without one.
    assert (first.status, first.attempts, first.lease_token, first.text) == ("pending", 0, "", "")
    assert (first.response, first.logprobs, first.latency_ms) == (None, None, None)
    assert first.created_at == second.created_at
    assert before <= first.created_at <= timezone.now()


def test_conflicts_are_skipped_only_when_asked(run):
    run, endpoint = run
    row = {"run_id": run.pk, "endpoint_id": endpoint.pk, "unit_key": "item1", "template": "helm", "request": {}}
    insert_rows(Call, [row])
    insert_rows(Call, [row, {**row, "unit_key": "item2"}], ignore_conflicts=True)
    assert sorted(Call.objects.filter(run=run).values_list("unit_key", flat=True)) == ["item1", "item2"]
    with pytest.raises(IntegrityError):
        insert_rows(Call, [{**row, "unit_key": "item3"}, row])
    # One statement: the refused batch wrote nothing, not even its new row.
    assert sorted(Call.objects.filter(run=run).values_list("unit_key", flat=True)) == ["item1", "item2"]


def test_batches_beyond_one_statement(run, monkeypatch):
    run, endpoint = run
    monkeypatch.setattr("evaluation.bulk_insert.BATCH", 3)
    rows = [
        {"run_id": run.pk, "endpoint_id": endpoint.pk, "unit_key": f"item{n}", "template": "", "request": {"i": n}}
        for n in range(7)
    ]
    insert_rows(Call, rows)
    assert list(Call.objects.filter(run=run).order_by("pk").values_list("unit_key", "request")) == [
        (f"item{n}", {"i": n}) for n in range(7)
    ]
