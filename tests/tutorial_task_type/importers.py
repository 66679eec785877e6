"""Import format `sentiment-jsonl`: one JSON object per line, the export's own layout.

    {"id": "s1", "text": "...", "author_label": "positive",
     "judges": ["W2", "W3"], "judge_labels": ["positive", "neutral"], "label": null}

Only `id` and `text` are needed: a file of bare sentences imports items to be labelled. `judges` and
`judge_labels` (the same length) become round-1 judgments by those annotator codes; `label` (the
export's gold label) is checked against the recomputed rule and a difference reported, never kept.
A line that is not a JSON object refuses the file; a row without an id or a text is skipped.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from django.utils.translation import gettext_lazy

from annotation.errors import InvalidInput
from annotation.importing.records import (
    BinaryStream,
    FileScan,
    Importer,
    ImportFileError,
    ImportJudgment,
    ImportRecord,
    RowIssue,
)
from annotation.importing.textfile import NotJson, json_line, row_problem, text_lines
from tests.tutorial_task_type.payload import normalize

MAX_ID = 200  # Item.external_id
MAX_CODE = 40  # Membership.code


def _rows(stream: BinaryStream) -> Iterator[tuple[int, dict[str, Any]]]:
    for number, text in text_lines(stream):
        if not text.strip():
            continue
        try:
            row = json_line(text)
        except NotJson as error:
            raise ImportFileError(f"line {number}: {error}. Nothing was imported.") from None
        if not isinstance(row, dict):
            raise ImportFileError(f"line {number}: a JSON {type(row).__name__}, not an object. Nothing was imported.")
        problem = row_problem(row)  # text the database can't hold (NUL, a lone surrogate), by field
        if problem is not None:
            raise ImportFileError(f"line {number}: {problem[0]}: {problem[1]} Nothing was imported.")
        yield number, row


def _judges(row: dict[str, Any]) -> list[tuple[str, Any]]:
    judges, labels = row.get("judges") or [], row.get("judge_labels") or []
    if not isinstance(judges, list) or not isinstance(labels, list) or len(judges) != len(labels):
        return []
    return [(str(code), label) for code, label in zip(judges, labels, strict=True) if str(code)]


class SentimentImporter(Importer):
    name = "sentiment-jsonl"
    label = gettext_lazy("Sentiment sentences (JSON Lines)")
    help = gettext_lazy("id, text; author_label, judges and judge_labels when known.")
    judgment_kind = "validate"  # the judging rule's kind
    judgments_word = "labels"
    skipping_codes = frozenset({"no_id", "no_text", "unstorable"})

    def scan(self, stream: BinaryStream, *, known_annotators: Iterable[str], max_annotators: int) -> FileScan:
        codes: dict[str, None] = {}
        rows = 0
        for _, row in _rows(stream):
            rows += 1
            for code, _label in _judges(row):
                if len(code) <= MAX_CODE:
                    codes.setdefault(code)
        if rows == 0:
            raise ImportFileError("The file has no sentences; nothing was imported.")
        if len(codes) > max_annotators:
            raise ImportFileError(f"The file names {len(codes)} judges; the project allows {max_annotators}.")
        return FileScan(annotators=tuple(codes), rows=rows)

    def records(self, stream: BinaryStream, *, scan: FileScan) -> Iterator[ImportRecord | RowIssue]:
        for number, row in _rows(stream):
            external_id = str(row.get("id") or "")[:MAX_ID]
            text = row.get("text")
            if not external_id:
                yield RowIssue(number, "", "no_id", "No id; row skipped.")
                continue
            if not isinstance(text, str) or not text.strip():
                yield RowIssue(number, external_id, "no_text", "No text; row skipped.")
                continue
            try:
                payload = normalize({"text": text, "label": str(row.get("author_label") or "")})
            except InvalidInput as refused:
                yield RowIssue(number, external_id, "unstorable", f"{refused}; row skipped.")
                continue
            judgments = tuple(
                ImportJudgment(annotator=code, round=1, value={"label": label})
                for code, label in _judges(row)
                if len(code) <= MAX_CODE
            )
            yield ImportRecord(
                row=number,
                external_id=external_id,
                payload=payload,
                judgments=judgments,
                judging_round=1 if judgments else 0,
                expected=row.get("label"),
                language=str(row.get("language") or ""),
            )

    def gold_issues(self, record: ImportRecord, details: dict[str, Any] | None) -> list[RowIssue]:
        computed = (details or {}).get("label")
        if record.expected is None or computed == record.expected:
            return []
        message = f"The file says label {record.expected!r}; the judges give {computed!r} (kept: recomputed)."
        return [RowIssue(record.row, record.external_id, "label_differs", message)]


IMPORTERS: dict[str, Importer] = {SentimentImporter.name: SentimentImporter()}
