"""One exported item in the id-csqa schema, as a dict (CSV, Parquet) or as a JSON line, and the writers.

The JSON line is assembled from cached fragments instead of json.dumps(dict): exports of 100,000 items
spend most of their time encoding otherwise. It is byte-for-byte json.dumps(csqa_row(record),
ensure_ascii=False) (tested), so both paths always say the same thing.
"""

from __future__ import annotations

import csv
import json
from dataclasses import dataclass
from functools import lru_cache
from json.encoder import encode_basestring
from pathlib import Path
from typing import Any

from qc.agreement import majority

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
CSV_DANGEROUS = ("=", "+", "-", "@", "\t", "\r")
MISSING = object()


def neutralise_csv_cell(value: str) -> str:
    """A cell a spreadsheet would run as a formula gets a leading quote (CSV/formula injection)."""
    return "'" + value if value.startswith(CSV_DANGEROUS) else value


def _word(flag: Any, yes: str, no: str) -> str | None:
    return yes if flag is True else no if flag is False else None


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def _text(value: Any) -> str:
    # encode_basestring is what json.dumps(ensure_ascii=False) uses for a str, without the set-up.
    return encode_basestring(value) if type(value) is str else _dumps(value)


@dataclass(frozen=True, slots=True)
class RenderedFlags:
    """A judgment's flags in the release's words (MISSING when absent), with their JSON text."""

    uncertainty: Any
    question: Any
    options: Any
    uncertainty_json: str
    question_json: str
    options_json: str


def render_flags(flags: dict[str, Any]) -> RenderedFlags:
    """answers_uncertainty, question_ambiguity and option_ambiguity values of one judgment. A value an
    import could not read (kept under flags["raw"]) comes back as it was."""
    raw = flags.get("raw") or {}
    values = []
    for name, key, yes, no in (
        ("uncertain", "answers_uncertainty", "uncertain", "certain"),
        ("question_ambiguous", "question_ambiguity", "ambiguous", "clear"),
    ):
        flag = flags.get(name)
        values.append(_word(flag, yes, no) if flag is not None else raw.get(key, MISSING))
    if "option_ambiguity" in raw:
        values.append(raw["option_ambiguity"])
    elif flags.get("option_ambiguous") is not None:
        values.append([_word(f, "ambiguous", "clear") for f in flags["option_ambiguous"]])
    else:
        values.append(MISSING)
    u, q, o = values
    u_json, q_json, o_json = ("" if v is MISSING else _dumps(v) for v in values)
    return RenderedFlags(u, q, o, u_json, q_json, o_json)


@lru_cache(maxsize=4096)
def rendered_from_text(text: str | None) -> RenderedFlags:
    # Flags arrive as JSON text and almost every answer has one of a few flag sets: decode each once.
    return render_flags(json.loads(text) if text else {})


@dataclass(slots=True)
class GoldRecord:
    """One exported item: what the database holds, before it is shaped into a row."""

    split: str
    external_id: str
    category: str
    concept: str
    payload: dict[str, Any]
    # (annotator code, answer, rendered flags, comment), in the project's annotator order.
    judgments: list[tuple[str, str | None, RenderedFlags, str]]

    @property
    def answers(self) -> list[str | None]:
        return [answer for _, answer, _, _ in self.judgments]

    @property
    def majority(self) -> str:
        return majority(self.answers) or ""


def csqa_row(record: GoldRecord) -> dict[str, Any]:
    answers, uncertainty, question, options, reason = {}, {}, {}, {}, {}
    for code, answer, flags, comment in record.judgments:
        answers[code] = answer
        reason[code] = comment
        if flags.uncertainty is not MISSING:
            uncertainty[code] = flags.uncertainty
        if flags.question is not MISSING:
            question[code] = flags.question
        if flags.options is not MISSING:
            options[code] = list(flags.options)  # a copy: rendered flags are shared between rows
    payload = record.payload
    return {
        "id": record.external_id,
        "category": record.category,
        "question_concept": record.concept,
        "question": payload.get("question", ""),
        "choices": {"label": list(LABELS), "text": list(payload.get("choices", []))},
        "answer_creator": payload.get("answer", ""),
        "answer_majority": record.majority,
        "answers": answers,
        "answers_uncertainty": uncertainty,
        "question_ambiguity": question,
        "option_ambiguity": options,
        "reason": reason,
    }


@lru_cache(maxsize=100_000)
def _key(code: str) -> str:
    return encode_basestring(code) + ": "


def _answer_json(answer: str | None) -> str:
    return "null" if answer is None else _text(answer)


def csqa_jsonl(record: GoldRecord) -> str:
    """The row as one JSON line (no newline): equal to json.dumps(csqa_row(record), ensure_ascii=False)."""
    answers, uncertainty, question, options, reason = [], [], [], [], []
    for code, answer, flags, comment in record.judgments:
        key = _key(code)
        answers.append(key + _answer_json(answer))
        reason.append(key + _text(comment))
        if flags.uncertainty_json:
            uncertainty.append(key + flags.uncertainty_json)
        if flags.question_json:
            question.append(key + flags.question_json)
        if flags.options_json:
            options.append(key + flags.options_json)
    payload = record.payload
    return "".join(
        (
            '{"id": ',
            _text(record.external_id),
            ', "category": ',
            _text(record.category),
            ', "question_concept": ',
            _text(record.concept),
            ', "question": ',
            _text(payload.get("question", "")),
            ', "choices": {"label": ["A", "B", "C", "D", "E"], "text": [',
            ", ".join(_text(choice) for choice in payload.get("choices", [])),
            ']}, "answer_creator": ',
            _text(payload.get("answer", "")),
            ', "answer_majority": ',
            encode_basestring(record.majority),
            ', "answers": {',
            ", ".join(answers),
            '}, "answers_uncertainty": {',
            ", ".join(uncertainty),
            '}, "question_ambiguity": {',
            ", ".join(question),
            '}, "option_ambiguity": {',
            ", ".join(options),
            '}, "reason": {',
            ", ".join(reason),
            "}}",
        )
    )


class JsonlWriter:
    def __init__(self, path: Path):
        self.file = path.open("w", encoding="utf-8", newline="\n")

    def write(self, record: GoldRecord) -> None:
        self.file.write(csqa_jsonl(record) + "\n")

    def close(self) -> None:
        self.file.close()


class CsvWriter:
    """Nested fields are JSON text; every text cell is neutralised against formula injection."""

    def __init__(self, path: Path):
        self.file = path.open("w", encoding="utf-8", newline="")
        self.writer = csv.writer(self.file)
        self.writer.writerow(FIELDS)

    def write(self, record: GoldRecord) -> None:
        row = csqa_row(record)
        cells = []
        for name in FIELDS:
            value = row[name]
            cells.append(neutralise_csv_cell(value if isinstance(value, str) else _dumps(value)))
        self.writer.writerow(cells)

    def close(self) -> None:
        self.file.close()


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


class ParquetWriter:
    def __init__(self, path: Path, buffer_rows: int):
        import pyarrow.parquet as pq

        self.schema = parquet_schema()
        self.writer = pq.ParquetWriter(path, self.schema)
        self.buffer: list[dict[str, Any]] = []
        self.buffer_rows = buffer_rows

    def write(self, record: GoldRecord) -> None:
        self.buffer.append(csqa_row(record))
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


def open_writer(fmt: str, path: Path, buffer_rows: int):
    if fmt == "jsonl":
        return JsonlWriter(path)
    if fmt == "csv":
        return CsvWriter(path)
    return ParquetWriter(path, buffer_rows)
