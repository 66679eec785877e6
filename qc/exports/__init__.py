"""The export engine: every task type's gold set, streamed with constant memory.

Which items: approved by QC and not excluded (status approved, judged or gold), in item order, each
with its judges' judgments (the project's annotator order) and its gold decision, as ExportRecords.
The task type says what a row is (export_fields, export_row, export_jsonl), where it goes
(export_split), the Parquet schema and the data card's body (datacard_text, with figures it gathers
through export_stats). In an export, an item without an external id is named "<slug>-<item id>".

Memory: items are read with a server-side cursor in chunks, judgments are fetched per chunk, every row
is written as soon as it is built; the data card's figures are gathered on the way.

Beside the splits: where the project's models are ranked (annotation.aggregation.ranking), its last ranking
as `ranking.json` (the report's `model_ranking` object, qc.reports.model_ranking) and in the data card.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.db.models import TextField
from django.db.models.functions import Cast

from annotation.aggregation.ranking import last_model_ranking, ranking_applies
from annotation.aggregation.store import aggregation_applies, last_fit, posteriors_between
from annotation.annotators import annotator_ranks, project_annotators
from annotation.batching import batched, fewer_gc_passes
from annotation.models import Item, Judgment, Project
from annotation.task_types import get_task_type, project_settings
from annotation.task_types.base import ExportRecord, GoldInfo, ItemRecord, JudgmentRecord
from qc.csv_cells import neutralise_csv_cell
from qc.exports.formats import open_writer
from qc.reports.model_ranking import ranking_json

__all__ = [
    "EXPORTED",
    "FORMATS",
    "ExportResult",
    "gold_export",
    "gold_records",
    "gold_rows",
    "neutralise_csv_cell",
]

FORMATS = ("jsonl", "csv", "parquet")
EXPORTED = (Item.Status.APPROVED, Item.Status.JUDGED, Item.Status.GOLD)
RANKING = "ranking"
RANKING_FILE = "ranking.json"


def _decode(memo: dict[str | None, dict[str, Any]], text: str | None) -> dict[str, Any]:
    """Few distinct values, flag sets and unit attributes across many rows: each is decoded once per
    export and the dict is shared between records, so task types must treat it as read-only."""
    if len(memo) > 50_000:  # free text (comments in flags) could make every value distinct
        memo.clear()
    value = memo[text] = json.loads(text) if text else {}
    return value


def with_posteriors(project: Project) -> bool:
    """Whether the export's rows carry the aggregation model's `label_posterior` (its last fit exists)."""
    return aggregation_applies(project) and last_fit(project=project) is not None


def gold_records(
    *, project: Project, chunk_size: int = 2000, posteriors: bool = False, statuses: tuple[str, ...] = EXPORTED
) -> Iterator[ExportRecord]:
    """Every exported item (`statuses`: the gold set's unless asked otherwise, never a check) with its
    judgments, in item order. One query per chunk of items, plus two (and one more per chunk for the
    posteriors, when asked)."""
    task_type = get_task_type(project.task_type)
    settings = project_settings(project)
    rule = task_type.judging_rule(settings)
    annotators = project_annotators(project_ids=[project.pk]).get(project.pk, [])
    codes = {a.user_id: a.code for a in annotators}
    order = _JudgeOrder(annotator_ranks(annotators))
    decoded: dict[str | None, dict[str, Any]] = {}
    reads_gold = task_type.export_reads_gold
    items = _exported_items(project, statuses=statuses, reads_gold=reads_gold, chunk_size=chunk_size)
    for chunk in batched(items, chunk_size):
        by_item = _chunk_judgments(
            project, chunk, kind=rule.kind if rule else None, codes=codes, order=order, decoded=decoded
        )
        by_item_posterior = (
            posteriors_between(project=project, first=chunk[0][0], last=chunk[-1][0]) if posteriors else {}
        )
        for pk, external_id, status, source, author_id, unit_id, unit, category, data, slot, round_, *rest in chunk:
            payload, lang = rest[0], rest[1]
            pairs = by_item.get(pk, ())
            if len(pairs) > 1:
                pairs.sort()
            item = ItemRecord(
                item_id=pk,
                external_id=external_id or f"{project.slug}-{pk}",
                status=status,
                source=source,
                author_id=author_id,
                author_code=codes.get(author_id, ""),
                unit_id=unit_id,
                unit_name=unit or "",
                category=category or "",
                unit_data=decoded[data] if data in decoded else _decode(decoded, data),
                slot=slot,
                judging_round=round_,
                payload=payload or {},
                language=lang,
            )
            gold = None
            if reads_gold and rest[2] is not None:
                gold = GoldInfo(item_id=pk, outcome=rest[2], reason=rest[3] or "", details=rest[4] or {})
            yield ExportRecord(
                item=item,
                judgments=tuple(judgment for _, judgment in pairs),
                gold=gold,
                settings=settings,
                seed=project.plan_seed,
                posterior=by_item_posterior.get(pk),
            )


def _exported_items(
    project: Project, *, statuses: tuple[str, ...], reads_gold: bool, chunk_size: int
) -> Iterator[tuple[Any, ...]]:
    """The items' rows in pk order, from a server-side cursor (the gold decision's columns when the task
    type's export reads them)."""
    gold_columns = ("gold_decision__outcome", "gold_decision__reason", "gold_decision__details") if reads_gold else ()
    return (
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
            Cast("concept__data", TextField()),
            "slot",
            "judging_round",
            "current_version__payload",
            "language",
            *gold_columns,
        )
        .order_by("pk")
        .iterator(chunk_size=chunk_size)
    )


class _JudgeOrder(dict):
    """user id -> (annotator rank, user id) packed in one int, so sorting judgments needs no key function.
    A judge outside the project's annotators (one who left) sorts after them all, by user id."""

    def __init__(self, ranks: dict[int, int]) -> None:
        super().__init__({user_id: (rank << 32) + user_id for user_id, rank in ranks.items()})
        self.last = len(ranks)

    def __missing__(self, user_id: int) -> int:
        position = self[user_id] = (self.last << 32) + user_id
        return position


def _chunk_judgments(
    project: Project,
    chunk: list[tuple[Any, ...]],
    *,
    kind: str | None,
    codes: dict[int, str],
    order: _JudgeOrder,
    decoded: dict[str | None, dict[str, Any]],
) -> dict[int, list[tuple[int, JudgmentRecord]]]:
    """item id -> its judgments of the chunk's items, each with its judge's sort position (unsorted)."""
    by_item: dict[int, list[tuple[int, JudgmentRecord]]] = {}
    # A pk range, not IN (2,000 ids): items come in pk order, and the range query is ~5x faster.
    # Judgments of items of the range that are not exported are fetched and ignored.
    judgments = Judgment.objects.filter(project=project, item_id__gte=chunk[0][0], item_id__lte=chunk[-1][0])
    if kind is not None:
        judgments = judgments.filter(kind=kind)
    for jid, item_id, user_id, round_, value, flags, comment in judgments.values_list(
        "pk", "item_id", "user_id", "round", Cast("value", TextField()), Cast("flags", TextField()), "comment"
    ).order_by():
        judgment = JudgmentRecord(
            jid,
            item_id,
            user_id,
            codes.get(user_id, ""),
            round_,
            decoded[value] if value in decoded else _decode(decoded, value),
            decoded[flags] if flags in decoded else _decode(decoded, flags),
            comment,
            None,
        )
        by_item.setdefault(item_id, []).append((order[user_id], judgment))
    return by_item


def gold_rows(*, project: Project, chunk_size: int = 2000) -> Iterator[tuple[str, dict]]:
    """(split, the task type's row as a dict) for every exported item."""
    task_type = get_task_type(project.task_type)
    for record in gold_records(project=project, chunk_size=chunk_size):
        yield task_type.export_split(record), task_type.export_row(record)


@dataclass(frozen=True)
class ExportResult:
    out_dir: Path
    files: dict[str, str]  # split -> file name
    counts: dict[str, int]  # split -> rows
    readme: str
    # Files beside the splits that are no split (what -> file name), e.g. {"ranking": "ranking.json"}.
    extra: dict[str, str] = field(default_factory=dict)

    @property
    def items(self) -> int:
        return sum(self.counts.values())


def _temporary(out: Path, split: str, fmt: str) -> Path:
    return out / f".{split}.{fmt}.tmp"


def gold_export(
    *,
    project: Project,
    fmt: str,
    out_dir: str | Path,
    chunk_size: int = 2000,
    progress: Callable[[int], None] | None = None,
) -> ExportResult:
    """Write `<split>.<fmt>` files and a README.md data card into out_dir; return what was written.

    Files are written under temporary names and renamed at the end, so a failed export never leaves
    a half-written file that looks complete. `progress(n)` is called after every chunk.
    """
    from qc.exports.datacard import data_card

    if fmt not in FORMATS:
        raise ValueError(f"Unknown format {fmt!r}; choose one of {', '.join(FORMATS)}.")
    task_type = get_task_type(project.task_type)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    writers: dict[str, object] = {}
    counts: dict[str, int] = {}
    categories: Counter = Counter()
    task_stats = task_type.export_stats()
    posteriors = with_posteriors(project)
    written = 0
    try:
        with fewer_gc_passes():
            for record in gold_records(project=project, chunk_size=chunk_size, posteriors=posteriors):
                split = task_type.export_split(record)
                writer = writers.get(split)
                if writer is None:
                    writer = writers[split] = open_writer(
                        fmt, _temporary(out, split, fmt), task_type, chunk_size, posteriors=posteriors
                    )
                writer.write(record)
                if task_stats is not None:
                    task_stats.add(record)
                categories[record.item.category] += 1
                counts[split] = counts.get(split, 0) + 1
                written += 1
                if progress is not None and written % chunk_size == 0:
                    progress(written)
        for writer in writers.values():
            writer.close()
    except BaseException:
        # A failed export leaves nothing behind: a half-written .tmp file would only fill the disk.
        for writer in writers.values():
            with contextlib.suppress(Exception):  # closed already, or failing as the export did
                writer.close()
        for split in writers:
            _temporary(out, split, fmt).unlink(missing_ok=True)
        raise
    files = {}
    for split in writers:
        os.replace(_temporary(out, split, fmt), out / f"{split}.{fmt}")
        files[split] = f"{split}.{fmt}"
    ranking = _ranking(project)
    extra = {}
    if ranking is not None:
        (out / RANKING_FILE).write_text(
            json.dumps({"project": project.slug, **ranking}, ensure_ascii=False, indent=2) + "\n", "utf-8"
        )
        extra[RANKING] = RANKING_FILE
    card = data_card(
        project=project,
        fmt=fmt,
        counts=counts,
        files=files,
        categories=dict(categories),
        task=task_stats,
        ranking=ranking,
    )
    (out / "README.md").write_text(card, "utf-8")
    if progress is not None:
        progress(written)
    return ExportResult(out_dir=out, files=files, counts=counts, readme="README.md", extra=extra)


def _ranking(project: Project) -> dict[str, Any] | None:
    """The project's last ranking of its models as JSON; None when they are not ranked or never were."""
    record = last_model_ranking(project=project) if ranking_applies(project) else None
    return ranking_json(record) if record is not None else None
