"""The report engine's reads: a project's plain rows (ReportRows) in three reads whatever its size.

Items approved by QC onward (excluded ones included) with their gold decision (joined), their judges'
judgments (the task type's judging kind) and the project's annotators in public order. Task types
compute their sections from these rows without touching the database.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from operator import attrgetter
from typing import Any

from django.db import connection, transaction
from django.db.models import DurationField, ExpressionWrapper, F, TextField
from django.db.models.functions import Cast

from annotation.annotators import project_annotators, rank_of
from annotation.batching import fewer_gc_passes
from annotation.db_settings import local_settings
from annotation.gold import DECIDABLE
from annotation.models import Item, Judgment, Project
from annotation.task_types import get_task_type, project_settings
from annotation.task_types.base import AnnotatorInfo, GoldInfo, ItemRecord, JudgmentRecord, ReportRows

# Rows are streamed in chunks rather than fetched whole: a queryset's cached list of 500,000 row tuples
# would be held beside the records built from it (~100 MB at the peak of a 500,000-judgment report).
ROWS_CHUNK = 20_000


def _as_text(field: str) -> Cast:
    # JSON read as text and decoded here: once per distinct text (judgment values, flags, gold details)
    # or once per concept, instead of Django decoding every row's copy (909,582 decodes at 120,000 pairs).
    return Cast(field, TextField())


def _duration(prefix: str) -> ExpressionWrapper:
    # Worked time computed by the database: two timestamps parsed per row cost ~1 s at 275,000 judgments.
    return ExpressionWrapper(F(f"{prefix}completed_at") - F(f"{prefix}started_at"), output_field=DurationField())


class _Decoder:
    """json.loads with a memory: equal texts give the SAME dict, so records' value, flags and gold details
    are shared and read-only (as in exports). No text gives an empty dict."""

    def __init__(self) -> None:
        self._seen: dict[str, Any] = {}

    def __call__(self, text: str | None) -> Any:
        if not text:
            return {}
        value = self._seen.get(text)
        if value is None:
            value = self._seen[text] = json.loads(text) or {}  # JSON null or empty: {} as before
        return value


@contextmanager
def _planned_for_every_row() -> Iterator[None]:
    """Server-side cursors declared in the block are planned for reading their whole result.

    PostgreSQL plans a cursor for its first tenth of rows (cursor_tuple_fraction 0.1): the judgments'
    query then joins each row's assignment by an index lookup, which starts at once but takes about twice
    as long as a hash join when every row is read, as here (PostgreSQL's CPU for the report's reads at
    275,000 judgments: 2.0 s instead of 3.3 s). JIT is off as in the column reads (qc/reports/columns.py):
    compiling costs more than it saves here. The caller's settings are put back afterwards
    (annotation.db_settings); the block is a transaction of its own when the caller has none (a server-side
    cursor and the settings need one). The items' query is left as it is: its first-rows plan was
    measured as fast as the whole-result one.
    """
    with (
        transaction.atomic(savepoint=False),
        connection.cursor() as cursor,
        local_settings(cursor, cursor_tuple_fraction="1", jit="off"),
    ):
        yield


def report_rows(*, project: Project) -> ReportRows:
    # ~400,000 records and their dicts, freed together: the default GC thresholds would scan them over
    # and over while they are built.
    with fewer_gc_passes():
        return _report_rows(project)


def _report_rows(project: Project) -> ReportRows:
    settings = project_settings(project)
    task_type = get_task_type(project.task_type)
    rule = task_type.judging_rule(settings)
    annotators = project_annotators(project_ids=[project.pk]).get(project.pk, [])
    code = {a.user_id: a.code for a in annotators}
    decode = _Decoder()
    statuses = DECIDABLE
    if task_type.report_reads_unapproved:
        statuses = (*DECIDABLE, Item.Status.SUBMITTED, Item.Status.REVISION_REQUESTED, Item.Status.REJECTED)
    items, gold = _item_records(project, statuses=statuses, code=code, decode=decode)
    unapproved = tuple(i for i in items if i.status not in DECIDABLE)
    if unapproved:
        items = [i for i in items if i.status in DECIDABLE]
    ranks = {a.user_id: i for i, a in enumerate(annotators)}
    judgments = _judgment_records(project, kind=rule.kind if rule else None, code=code, ranks=ranks, decode=decode)
    return ReportRows(
        settings=settings,
        seed=project.plan_seed,
        items=tuple(items),
        judgments=tuple(judgments),
        gold=gold,
        annotators=tuple(AnnotatorInfo(user_id=a.user_id, code=a.code, region=a.region) for a in annotators),
        unapproved=unapproved,
    )


def _item_records(
    project: Project, *, statuses: tuple[str, ...], code: dict[int, str], decode: _Decoder
) -> tuple[list[ItemRecord], dict[int, GoldInfo]]:
    """The project's items in these statuses, in id order, and the gold decisions of those decided."""
    items, gold = [], {}
    unit_data: dict[int | None, Any] = {}
    for row in (
        Item.objects.filter(project=project, status__in=statuses)
        .values_list(
            "pk",
            "external_id",
            "status",
            "source",
            "author_id",
            "concept_id",
            "concept__name",
            "concept__category__name",
            _as_text("concept__data"),
            "slot",
            "judging_round",
            _as_text("current_version__payload"),
            _duration("assignment__"),
            "gold_decision__outcome",
            "gold_decision__reason",
            _as_text("gold_decision__details"),
        )
        .order_by()  # sorted below: the database would sort these wide rows on disk (~30 MB at 120,000)
        .iterator(chunk_size=ROWS_CHUNK)
    ):
        pk, ext, status, source, author_id, unit_id, unit, category, data, slot, round_, payload, *rest = row
        worked, outcome, reason, details = rest
        if unit_id not in unit_data:
            # A unit (concept) holds several items (e.g. six hypotheses per premise): decoded once, shared.
            unit_data[unit_id] = (json.loads(data) if data else None) or {}
        items.append(
            ItemRecord(
                item_id=pk,
                external_id=ext or "",
                status=status,
                source=source,
                author_id=author_id,
                author_code=code.get(author_id, ""),
                unit_id=unit_id,
                unit_name=unit or "",
                category=category or "",
                unit_data=unit_data[unit_id],
                slot=slot,
                judging_round=round_,
                payload=(json.loads(payload) if payload else None) or {},
                seconds=worked.total_seconds() if worked is not None else None,
            )
        )
        if outcome is not None:
            gold[pk] = GoldInfo(item_id=pk, outcome=outcome, reason=reason or "", details=decode(details))
    items.sort(key=attrgetter("item_id"))
    return items, gold


def _judgment_records(
    project: Project, *, kind: str | None, code: dict[int, str], ranks: dict[int, int], decode: _Decoder
) -> list[JudgmentRecord]:
    """The judgments of approved items (of the judging kind, when the task type has one), by item, then
    in the annotators' public order."""
    judgments = Judgment.objects.filter(project=project, item__status__in=DECIDABLE)
    if kind is not None:
        judgments = judgments.filter(kind=kind)
    with _planned_for_every_row():
        records = [
            JudgmentRecord(
                judgment_id=jid,
                item_id=item_id,
                user_id=user_id,
                user_code=code.get(user_id, ""),
                round=round_,
                value=decode(value),
                flags=decode(flags),
                comment=comment or "",
                seconds=worked.total_seconds() if worked is not None else None,
            )
            for jid, item_id, user_id, round_, value, flags, comment, worked in judgments.values_list(
                "pk",
                "item_id",
                "user_id",
                "round",
                _as_text("value"),
                _as_text("flags"),
                "comment",
                _duration("assignment__"),
            )
            # In item order: the records are then built in the order the sections read them (in the hash
            # join's order the same sections took ~0.8 s longer at 275,000 judgments).
            .order_by("item_id")
            .iterator(chunk_size=ROWS_CHUNK)
        ]
    # Two stable sorts, the second keyed in C: by the judges' public order, then by item (one sort on
    # (item, rank) took twice as long at 275,000 judgments).
    judges = sorted({r.user_id for r in records}, key=lambda user_id: rank_of(ranks, user_id))
    position = {user_id: n for n, user_id in enumerate(judges)}
    records.sort(key=lambda j: position[j.user_id])
    records.sort(key=attrgetter("item_id"))
    return records
