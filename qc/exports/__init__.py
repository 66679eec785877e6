"""Gold-set export in the id-csqa schema (Putri et al. 2024), streamed with constant memory.

Rows: id, category, question_concept, question, choices{label,text}, answer_creator, answer_majority,
answers{code: letter}, answers_uncertainty{code: certain|uncertain}, question_ambiguity{code:
clear|ambiguous}, option_ambiguity{code: [5 x clear|ambiguous]}, reason{code: text}. Codes are the
members' public codes (W1...), in that order. A value an import could not read is written back as it
was (see annotation.importing.csqa), so exporting and importing JSON Lines gives back the same items.

Which items: approved by QC and not excluded (status approved, judged or gold). Splits: human-written
items (written here or imported from a human-written release) are test-only. So are machine-written
ones (generated or adapted by an LLM): the published release ships each of its sets as a test set, and
one file per export keeps Hugging Face's schema inference from meeting two files whose per-annotator
dictionaries have different keys (it then fails to cast one to the other).
Memory: items are read with a server-side cursor in chunks, answers are fetched per chunk, every row
is written as soon as it is built; the data card's figures are gathered on the way as small arrays.
"""

from __future__ import annotations

import os
from array import array
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from django.db.models import TextField
from django.db.models.fields.json import KT
from django.db.models.functions import Cast

from annotation.annotators import annotator_ranks, project_annotators
from annotation.models import Item, Judgment, Project
from qc.agreement import alpha_nominal_counts
from qc.batching import batched
from qc.exports.formats import (
    FIELDS,
    LABELS,
    GoldRecord,
    csqa_jsonl,
    csqa_row,
    neutralise_csv_cell,
    open_writer,
    rendered_from_text,
)

__all__ = [
    "EXPORTED",
    "FIELDS",
    "FORMATS",
    "ExportResult",
    "ExportStats",
    "csqa_jsonl",
    "csqa_row",
    "gold_export",
    "gold_records",
    "gold_rows",
    "neutralise_csv_cell",
]

FORMATS = ("jsonl", "csv", "parquet")
EXPORTED = (Item.Status.APPROVED, Item.Status.JUDGED, Item.Status.GOLD)
SPLIT_BY_SOURCE = {
    Item.Source.HUMAN: "test",
    Item.Source.IMPORT: "test",
    Item.Source.LLM_GEN: "test",
    Item.Source.LLM_ADAPT: "test",
}
_LETTER = {label: i for i, label in enumerate(LABELS)}


def gold_records(*, project: Project, chunk_size: int = 2000) -> Iterator[GoldRecord]:
    """Every exported item with its answers, in item order. One query per chunk of items, plus two."""
    annotators = project_annotators(project_ids=[project.pk]).get(project.pk, [])
    ranks = annotator_ranks(annotators)
    last = len(ranks)
    codes = {a.user_id: a.code for a in annotators}
    items = (
        Item.objects.filter(project=project, status__in=EXPORTED)
        .values_list(
            "pk", "external_id", "source", "concept__category__name", "concept__name", "current_version__payload"
        )
        .order_by("pk")
        .iterator(chunk_size=chunk_size)
    )
    for chunk in batched(items, chunk_size):
        by_item: dict[int, list] = {}
        for item_id, user_id, answer, flags, comment in (
            # A pk range, not IN (2,000 ids): items come in pk order, and the range query is ~5x faster.
            # Answers to items of the range that are not exported are fetched and ignored.
            Judgment.objects.filter(project=project, item_id__gte=chunk[0][0], item_id__lte=chunk[-1][0], kind="answer")
            .values_list("item_id", "user_id", KT("value__answer"), Cast("flags", TextField()), "comment")
            .order_by()
        ):
            by_item.setdefault(item_id, []).append((user_id, answer, rendered_from_text(flags), comment))
        for pk, external_id, source, category, concept, payload in chunk:
            rows = by_item.get(pk, ())
            if len(rows) > 1:
                rows.sort(key=lambda r: (ranks.get(r[0], last), r[0]))
            yield GoldRecord(
                split=SPLIT_BY_SOURCE.get(source, "test"),
                external_id=external_id or f"{project.slug}-{pk}",
                category=category or "",
                concept=concept or "",
                payload=payload or {},
                judgments=[(codes.get(u, f"user{u}"), a, f, c) for u, a, f, c in rows],
            )


def gold_rows(*, project: Project, chunk_size: int = 2000) -> Iterator[tuple[str, dict]]:
    """(split, id-csqa row as a dict) for every exported item."""
    for record in gold_records(project=project, chunk_size=chunk_size):
        yield record.split, csqa_row(record)


@dataclass
class ExportStats:
    """What the data card says about the exported items, gathered while they are written."""

    categories: Counter = field(default_factory=Counter)
    matches_author: int = 0
    # Per item: how many answers were A..E, then the author's answer (0-4, or 5 when unknown).
    counts: array = field(default_factory=lambda: array("H"))

    def add(self, record: GoldRecord) -> None:
        self.categories[record.category] += 1
        per_value = [0] * 6
        for _, answer, _, _ in record.judgments:
            index = _LETTER.get(answer)
            if index is not None:
                per_value[index] += 1
        author = record.payload.get("answer")
        per_value[5] = _LETTER.get(author, 5)
        self.counts.extend(per_value)
        if author and record.majority == author:
            self.matches_author += 1

    @property
    def items(self) -> int:
        return len(self.counts) // 6

    def alpha(self) -> dict[str, float | None]:
        table = np.frombuffer(self.counts, dtype=np.uint16).reshape(-1, 6).astype(np.int64)
        answers = table[:, :5]
        with_author = answers.copy()
        known = table[:, 5] < 5
        with_author[np.nonzero(known)[0], table[known, 5]] += 1
        return {
            "alpha_nominal": alpha_nominal_counts(answers),
            "alpha_nominal_with_author": alpha_nominal_counts(with_author),
        }


@dataclass(frozen=True)
class ExportResult:
    out_dir: Path
    files: dict[str, str]
    counts: dict[str, int]
    readme: str

    @property
    def items(self) -> int:
        return sum(self.counts.values())


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
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    writers: dict[str, object] = {}
    counts: dict[str, int] = {}
    stats = ExportStats()
    try:
        for record in gold_records(project=project, chunk_size=chunk_size):
            writer = writers.get(record.split)
            if writer is None:
                writer = writers[record.split] = open_writer(fmt, out / f".{record.split}.{fmt}.tmp", chunk_size)
            writer.write(record)
            stats.add(record)
            counts[record.split] = counts.get(record.split, 0) + 1
            if progress is not None and stats.items % chunk_size == 0:
                progress(stats.items)
    finally:
        for writer in writers.values():
            writer.close()
    files = {}
    for split in writers:
        os.replace(out / f".{split}.{fmt}.tmp", out / f"{split}.{fmt}")
        files[split] = f"{split}.{fmt}"
    (out / "README.md").write_text(
        data_card(project=project, fmt=fmt, counts=counts, files=files, stats=stats), "utf-8"
    )
    if progress is not None:
        progress(stats.items)
    return ExportResult(out_dir=out, files=files, counts=counts, readme="README.md")
