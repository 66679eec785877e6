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
Memory: items are read with a server-side iterator in chunks, answers are fetched per chunk, every
row is written as soon as it is built.
"""

from __future__ import annotations

import csv
import json
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from django.db.models import TextField
from django.db.models.fields.json import KT
from django.db.models.functions import Cast

from annotation.annotators import annotator_ranks, project_annotators
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
    Item.Source.LLM_GEN: "test",
    Item.Source.LLM_ADAPT: "test",
}
CSV_DANGEROUS = ("=", "+", "-", "@", "\t", "\r")


def parquet_schema():
    """Per-annotator fields are maps (code -> value): their keys differ from row to row."""
    import pyarrow as pa  # imported on use: ~50 MB that JSON Lines and CSV exports don't need

    str_map = pa.map_(pa.string(), pa.string())
    return pa.schema(
        [
            ("id", pa.string()),
            ("category", pa.string()),
            ("question_concept", pa.string()),
            ("question", pa.string()),
            ("choices", pa.struct([("label", pa.list_(pa.string())), ("text", pa.list_(pa.string()))])),
            ("answer_creator", pa.string()),
            ("answer_majority", pa.string()),
            ("answers", str_map),
            ("answers_uncertainty", str_map),
            ("question_ambiguity", str_map),
            ("option_ambiguity", pa.map_(pa.string(), pa.list_(pa.string()))),
            ("reason", str_map),
        ]
    )


_MISSING = object()


def neutralise_csv_cell(value: str) -> str:
    """A cell a spreadsheet would run as a formula gets a leading quote (CSV/formula injection)."""
    return "'" + value if value.startswith(CSV_DANGEROUS) else value


def _word(flag: Any, yes: str, no: str) -> str | None:
    return yes if flag is True else no if flag is False else None


def render_flags(flags: dict[str, Any]) -> tuple[Any, Any, Any]:
    """(answers_uncertainty, question_ambiguity, option_ambiguity) values of one judgment, in the
    release's words; a value an import could not read comes back as it was; _MISSING when absent."""
    raw = flags.get("raw") or {}
    out = []
    for name, key, yes, no in (
        ("uncertain", "answers_uncertainty", "uncertain", "certain"),
        ("question_ambiguous", "question_ambiguity", "ambiguous", "clear"),
    ):
        flag = flags.get(name)
        out.append(_word(flag, yes, no) if flag is not None else raw.get(key, _MISSING))
    if "option_ambiguity" in raw:
        out.append(raw["option_ambiguity"])
    elif flags.get("option_ambiguous") is not None:
        out.append([_word(f, "ambiguous", "clear") for f in flags["option_ambiguous"]])
    else:
        out.append(_MISSING)
    return out[0], out[1], out[2]


@lru_cache(maxsize=4096)
def _rendered(text: str | None) -> tuple[Any, Any, Any]:
    # Flags arrive as JSON text and almost every answer has one of a few flag sets: decode each once.
    return render_flags(json.loads(text) if text else {})


def csqa_row(
    *,
    external_id: str,
    category: str,
    concept: str,
    payload: dict[str, Any],
    judgments: list[tuple[str, str | None, tuple[Any, Any, Any], str]],
) -> dict[str, Any]:
    """One id-csqa row from an item and its judgments [(code, answer, render_flags(...), comment)],
    in code order."""
    answers, uncertainty, question, options, reason = {}, {}, {}, {}, {}
    for code, answer, (u, q, o), comment in judgments:
        answers[code] = answer
        reason[code] = comment
        if u is not _MISSING:
            uncertainty[code] = u
        if q is not _MISSING:
            question[code] = q
        if o is not _MISSING:
            # A fresh list: the rendered flags are shared between rows.
            options[code] = list(o)
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
            by_item.setdefault(item_id, []).append((user_id, answer, _rendered(flags), comment))
        for pk, external_id, source, category, concept, payload in chunk:
            rows = sorted(by_item.get(pk, ()), key=lambda r: (ranks.get(r[0], last), r[0]))
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
        import pyarrow.parquet as pq

        self.schema = parquet_schema()
        self.writer = pq.ParquetWriter(path, self.schema)
        self.buffer: list[dict[str, Any]] = []
        self.buffer_rows = buffer_rows

    def write(self, row: dict[str, Any]) -> None:
        self.buffer.append(row)
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
