"""Gold-set export in the id-csqa schema (Putri et al. 2024), streamed with constant memory.

Rows: id, category, question_concept, question, choices{label,text}, answer_creator, answer_majority,
answers{code: letter}, answers_uncertainty{code: certain|uncertain}, question_ambiguity{code:
clear|ambiguous}, option_ambiguity{code: [5 x clear|ambiguous]}, reason{code: text}. Codes are the
members' public codes (W1...), in that order. A value an import could not read is written back as it
was (see annotation.importing.csqa), so exporting and importing JSON Lines gives back the same items.

Which items: approved by QC and not excluded (status approved, judged or gold). Splits: human-written
items (written here or imported from a human-written release) are test-only; machine-written ones
(generated or adapted by an LLM) go to train, as they must not be used to evaluate models.
Memory: items are read with a server-side iterator in chunks, answers are fetched per chunk, every
row is written as soon as it is built.
"""

from __future__ import annotations

import csv
import json
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from annotation.annotators import annotator_ranks, project_annotators, rank_of
from annotation.models import Item, Judgment, Project
from qc.agreement import majority
from qc.batching import batched

FORMATS = ("jsonl", "csv", "parquet")
FIELDS = (
    "id",
    "category",
    "question_concept",
    "question",
    "choices",
    "answer_creator",
    "answer_majority",
    "answers",
    "answers_uncertainty",
    "question_ambiguity",
    "option_ambiguity",
    "reason",
)
LABELS = ["A", "B", "C", "D", "E"]
EXPORTED = (Item.Status.APPROVED, Item.Status.JUDGED, Item.Status.GOLD)
SPLIT_BY_SOURCE = {
    Item.Source.HUMAN: "test",
    Item.Source.IMPORT: "test",
    Item.Source.LLM_GEN: "train",
    Item.Source.LLM_ADAPT: "train",
}
CSV_DANGEROUS = ("=", "+", "-", "@", "\t", "\r")

_STR_MAP = pa.map_(pa.string(), pa.string())
PARQUET_SCHEMA = pa.schema(
    [
        ("id", pa.string()),
        ("category", pa.string()),
        ("question_concept", pa.string()),
        ("question", pa.string()),
        ("choices", pa.struct([("label", pa.list_(pa.string())), ("text", pa.list_(pa.string()))])),
        ("answer_creator", pa.string()),
        ("answer_majority", pa.string()),
        ("answers", _STR_MAP),
        ("answers_uncertainty", _STR_MAP),
        ("question_ambiguity", _STR_MAP),
        ("option_ambiguity", pa.map_(pa.string(), pa.list_(pa.string()))),
        ("reason", _STR_MAP),
    ]
)


def neutralise_csv_cell(value: str) -> str:
    """A cell a spreadsheet would run as a formula gets a leading quote (CSV/formula injection)."""
    return "'" + value if value.startswith(CSV_DANGEROUS) else value


def _word(flag: Any, yes: str, no: str) -> str | None:
    return yes if flag is True else no if flag is False else None


def csqa_row(
    *,
    external_id: str,
    category: str,
    concept: str,
    payload: dict[str, Any],
    judgments: list[tuple[str, dict[str, Any], dict[str, Any], str]],
) -> dict[str, Any]:
    """One id-csqa row from an item and its judgments [(code, value, flags, comment)] in code order."""
    answers, uncertainty, question, options, reason = {}, {}, {}, {}, {}
    for code, value, flags, comment in judgments:
        raw = flags.get("raw") or {}
        answers[code] = value.get("answer")
        word = _word(flags.get("uncertain"), "uncertain", "certain")
        if word is not None:
            uncertainty[code] = word
        elif "answers_uncertainty" in raw:
            uncertainty[code] = raw["answers_uncertainty"]
        word = _word(flags.get("question_ambiguous"), "ambiguous", "clear")
        if word is not None:
            question[code] = word
        elif "question_ambiguity" in raw:
            question[code] = raw["question_ambiguity"]
        if "option_ambiguity" in raw:
            options[code] = raw["option_ambiguity"]
        elif flags.get("option_ambiguous") is not None:
            options[code] = [_word(f, "ambiguous", "clear") for f in flags["option_ambiguous"]]
        reason[code] = comment
    return {
        "id": external_id,
        "category": category,
        "question_concept": concept,
        "question": payload.get("question", ""),
        "choices": {"label": list(LABELS), "text": list(payload.get("choices", []))},
        "answer_creator": payload.get("answer", ""),
        "answer_majority": majority(list(answers.values())) or "",
        "answers": answers,
        "answers_uncertainty": uncertainty,
        "question_ambiguity": question,
        "option_ambiguity": options,
        "reason": reason,
    }


def gold_rows(*, project: Project, chunk_size: int = 2000) -> Iterator[tuple[str, dict[str, Any]]]:
    """(split, row) for every exported item, in item order. Two queries per chunk of items."""
    annotators = project_annotators(project_ids=[project.pk]).get(project.pk, [])
    ranks = annotator_ranks(annotators)
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
        for item_id, user_id, value, flags, comment in (
            Judgment.objects.filter(item_id__in=[c[0] for c in chunk], kind="answer")
            .values_list("item_id", "user_id", "value", "flags", "comment")
            .order_by()
        ):
            by_item.setdefault(item_id, []).append((user_id, value, flags or {}, comment))
        for pk, external_id, source, category, concept, payload in chunk:
            rows = sorted(by_item.get(pk, ()), key=lambda r: rank_of(ranks, r[0]))
            yield (
                SPLIT_BY_SOURCE.get(source, "test"),
                csqa_row(
                    external_id=external_id or f"{project.slug}-{pk}",
                    category=category or "",
                    concept=concept or "",
                    payload=payload or {},
                    judgments=[(codes.get(u, f"user{u}"), v, f, c) for u, v, f, c in rows],
                ),
            )


class _JsonlWriter:
    def __init__(self, path: Path):
        self.file = path.open("w", encoding="utf-8", newline="\n")

    def write(self, row: dict[str, Any]) -> None:
        self.file.write(json.dumps(row, ensure_ascii=False) + "\n")

    def close(self) -> None:
        self.file.close()


class _CsvWriter:
    """Nested fields are JSON text; every text cell is neutralised against formula injection."""

    def __init__(self, path: Path):
        self.file = path.open("w", encoding="utf-8", newline="")
        self.writer = csv.writer(self.file)
        self.writer.writerow(FIELDS)

    def write(self, row: dict[str, Any]) -> None:
        cells = []
        for name in FIELDS:
            value = row[name]
            text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
            cells.append(neutralise_csv_cell(text))
        self.writer.writerow(cells)

    def close(self) -> None:
        self.file.close()


class _ParquetWriter:
    def __init__(self, path: Path, buffer_rows: int):
        self.writer = pq.ParquetWriter(path, PARQUET_SCHEMA)
        self.buffer: list[dict[str, Any]] = []
        self.buffer_rows = buffer_rows

    def write(self, row: dict[str, Any]) -> None:
        self.buffer.append(row)
        if len(self.buffer) >= self.buffer_rows:
            self.flush()

    def flush(self) -> None:
        if self.buffer:
            self.writer.write_table(pa.Table.from_pylist(self.buffer, schema=PARQUET_SCHEMA))
            self.buffer = []

    def close(self) -> None:
        self.flush()
        self.writer.close()


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
    from qc.datacard import data_card  # the card reads agreement figures; keep this module light

    if fmt not in FORMATS:
        raise ValueError(f"Unknown format {fmt!r}; choose one of {', '.join(FORMATS)}.")
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    writers: dict[str, Any] = {}
    counts: dict[str, int] = {}
    written = 0
    try:
        for split, row in gold_rows(project=project, chunk_size=chunk_size):
            writer = writers.get(split)
            if writer is None:
                tmp = out / f".{split}.{fmt}.tmp"
                writer = writers[split] = (
                    _JsonlWriter(tmp)
                    if fmt == "jsonl"
                    else _CsvWriter(tmp)
                    if fmt == "csv"
                    else _ParquetWriter(tmp, chunk_size)
                )
            writer.write(row)
            counts[split] = counts.get(split, 0) + 1
            written += 1
            if progress is not None and written % chunk_size == 0:
                progress(written)
    finally:
        for writer in writers.values():
            writer.close()
    files = {}
    for split in writers:
        os.replace(out / f".{split}.{fmt}.tmp", out / f"{split}.{fmt}")
        files[split] = f"{split}.{fmt}"
    readme = data_card(project=project, fmt=fmt, counts=counts, files=files)
    (out / "README.md").write_text(readme, encoding="utf-8")
    if progress is not None:
        progress(written)
    return ExportResult(out_dir=out, files=files, counts=counts, readme="README.md")
