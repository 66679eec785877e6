"""NLI import formats: released IndoNLI JSON Lines ("indonli") and MNLI/SNLI-style files ("mnli").

Pure parsers over the streaming readers of files.py. Each premise is a unit (Concept: category = the
source genre or "unknown", name = the premise id, data = {text, source, topic, document_id,
sentence_size}); each hypothesis an item whose payload is {"hypothesis", "label" (the author's),
"tags"} plus "release": what the file said that the protocol does not produce itself (the released
label, split, annotator type, annotation round, individual labels), kept so an export can give it back.

MNLI replay: label1 is the author's; label2 and label3 are round 1, label4 round 2, label5 round 3, each
by an imported annotator named after its column (L2..L5). Only the labels the protocol would have asked
for are imported (a pair settled in round 1 never uses label4 or label5): rounds.replay decides.

Every bad line (not JSON, not an object, not UTF-8, no premise or hypothesis) refuses the whole file,
named by line numbers; an odd value (an unknown label, split or size) is kept and reported by row.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator
from typing import Any

from django.utils.translation import gettext_lazy

from annotation.importing.records import (
    BinaryStream,
    FileScan,
    Importer,
    ImportFileError,
    ImportJudgment,
    ImportRecord,
    ImportUnit,
    RowIssue,
)
from annotation.task_types.nli.corpus import sentence_size
from annotation.task_types.nli.files import IndoNliRow, MnliRow, Note, RefusedLine, read_indonli, read_mnli
from annotation.task_types.nli.rounds import ROUND_SIZES, replay

UNKNOWN_SOURCE = "unknown"
MAX_EXTERNAL_ID = 200  # Item.external_id
MAX_UNIT_NAME = 300  # Concept.name
REFUSED_SHOWN = 20
SKIPPING = frozenset({"missing_id"})
MNLI_AUTHOR = "L1"
MNLI_VALIDATORS = ("L2", "L3", "L4", "L5")  # label2..label5, in round order
NO_FLAGS = {"error": False, "correction": ""}


def _refuse(refused: list[RefusedLine]) -> ImportFileError:
    shown = "; ".join(f"line {r.line}: {r.message}" for r in refused[:REFUSED_SHOWN])
    more = f" (and {len(refused) - REFUSED_SHOWN} more)" if len(refused) > REFUSED_SHOWN else ""
    return ImportFileError(f"{len(refused)} line(s) can't be read: {shown}{more}. Nothing was imported.")


def _scan(rows: Iterable[Any], annotators: tuple[str, ...]) -> FileScan:
    """Every line read once: any bad line refuses the file before anything is written."""
    refused: list[RefusedLine] = []
    count = 0
    for row in rows:
        count += 1
        if isinstance(row, RefusedLine):
            refused.append(row)
    if refused:
        raise _refuse(refused)
    if count == 0:
        raise ImportFileError("The file has no pairs; nothing was imported.")
    return FileScan(annotators=annotators, rows=count)


def _issues(notes: Iterable[Note], external_id: str) -> list[RowIssue]:
    return [RowIssue(n.line, external_id, f"odd_{n.field}", n.message) for n in notes]


def _premise_name(premise_id: str | None, text: str) -> str:
    # A file without premise ids: the same text is the same unit (stable across imports).
    if premise_id:
        return premise_id[:MAX_UNIT_NAME]
    return "p-" + hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


class _Ids:
    """A pair's external id: rows without one are skipped; a repeated one is imported again under
    `<id>#<n>` and reported (the released Dev and Test_LAY files repeat three pairs, and the paper's
    Table 4 counts them), so importing the file again still matches every row."""

    def __init__(self) -> None:
        self.seen: dict[str, list[int]] = {}

    def check(self, pair_id: str | None, line: int) -> tuple[str, RowIssue | None]:
        if not pair_id:
            return "", RowIssue(line, "", "missing_id", "No pair id; row skipped.")
        if len(pair_id) > MAX_EXTERNAL_ID - 6:
            return "", RowIssue(
                line, "", "missing_id", f"The pair id is longer than {MAX_EXTERNAL_ID - 6}; row skipped."
            )
        lines = self.seen.setdefault(pair_id, [])
        lines.append(line)
        if len(lines) == 1:
            return pair_id, None
        external_id = f"{pair_id}#{len(lines)}"
        message = f"The pair id was already used in row {lines[0]}; imported again as {external_id}."
        return external_id, RowIssue(line, external_id, "duplicate_id", message)


class IndoNliImporter(Importer):
    name = "indonli"
    label = gettext_lazy("IndoNLI release (JSON Lines)")
    help = gettext_lazy(
        "pair_id, premise_id, premise, hypothesis, label, data_split, annotator_type, sentence_size; "
        "author_label and annotation_round where present. The author's label is author_label when given, "
        "else label; the released label, split and annotator type are kept with the item."
    )
    judgment_kind = "validate"
    judgments_word = "labels"
    skipping_codes = SKIPPING

    def scan(self, stream: BinaryStream, *, known_annotators: Iterable[str], max_annotators: int) -> FileScan:
        return _scan(read_indonli(stream), ())

    def records(self, stream: BinaryStream, *, scan: FileScan) -> Iterator[ImportRecord | RowIssue]:
        for row, external_id in _identified(read_indonli(stream)):
            if isinstance(row, RowIssue):
                yield row
            else:
                yield _indonli_record(row, external_id)


def _identified(rows: Iterable[Any]) -> Iterator[tuple[Any, str]]:
    """The rows of a file with their external ids (a repeated pair id gets `#2`), and, in their place,
    the issues of each row (as (issue, "") pairs). A refused line means the file changed since the scan
    refused it: refuse it again."""
    ids = _Ids()
    for row in rows:
        if isinstance(row, RefusedLine):
            raise _refuse([row])
        external_id, issue = ids.check(row.pair_id, row.line)
        if issue is not None:
            yield issue, ""
        if not external_id:
            continue
        for note_issue in _issues(row.notes, external_id):
            yield note_issue, ""
        yield row, external_id


def _indonli_record(row: IndoNliRow, external_id: str) -> ImportRecord:
    author_label = row.author_label or row.label or ""
    release: dict[str, Any] = {
        "label": row.label if row.label is not None else row.raw_label,
        "data_split": row.data_split,
        "annotator_type": row.annotator_type,
    }
    if row.annotation_round is not None:
        release["annotation_round"] = row.annotation_round
    return ImportRecord(
        row=row.line,
        external_id=external_id,
        payload={"hypothesis": row.hypothesis, "label": author_label, "tags": list(row.phenomena), "release": release},
        unit=ImportUnit(
            category=UNKNOWN_SOURCE,
            name=_premise_name(row.premise_id, row.premise),
            data={
                "text": row.premise,
                "source": UNKNOWN_SOURCE,
                "topic": "",
                "document_id": "",
                "sentence_size": row.sentence_size or sentence_size(row.premise),
            },
        ),
        judging_round=row.annotation_round or 0,
        known_answer=row.known_answer,
    )


class MnliImporter(Importer):
    name = "mnli"
    label = gettext_lazy("MNLI/SNLI-style JSON Lines (label1..label5, gold_label)")
    help = gettext_lazy(
        "sentence1 (premise), sentence2 (hypothesis), label1 (the author's) .. label5, gold_label, pairID, "
        "promptID, genre. label2 and label3 become round-1 labels, label4 round 2, label5 round 3, each only "
        "when the protocol would have asked for it; imported annotators L2..L5 give them."
    )
    judgment_kind = "validate"
    judgments_word = "labels"
    skipping_codes = SKIPPING

    def scan(self, stream: BinaryStream, *, known_annotators: Iterable[str], max_annotators: int) -> FileScan:
        return _scan(read_mnli(stream), (MNLI_AUTHOR, *MNLI_VALIDATORS))

    def records(self, stream: BinaryStream, *, scan: FileScan) -> Iterator[ImportRecord | RowIssue]:
        for row, external_id in _identified(read_mnli(stream)):
            if isinstance(row, RowIssue):
                yield row
                continue
            record, issues = _mnli_record(row, external_id)
            yield from issues
            yield record

    def gold_issues(self, record: ImportRecord, details: dict[str, Any] | None) -> list[RowIssue]:
        if details is None or "label" not in details or record.expected == details.get("label"):
            return []
        message = (
            f"The file says gold_label {record.expected or '-'}; the replayed rounds give "
            f"{details.get('label') or 'no gold'} (kept: gold is recomputed from the labels)."
        )
        return [RowIssue(record.row, record.external_id, "gold_differs", message)]


def _round_of(position: int) -> int:
    """The round of the validator at `position` (0-based) in round order: 0, 1 -> 1; 2 -> 2; 3 -> 3."""
    total = 0
    for number in sorted(ROUND_SIZES):
        total += ROUND_SIZES[number]
        if position < total:
            return number
    raise ValueError(f"no round has a validator at position {position}")


def _mnli_record(row: MnliRow, external_id: str) -> tuple[ImportRecord, list[RowIssue]]:
    issues: list[RowIssue] = []
    validators: list[str] = []
    try:
        decision = replay(row.labels)
    except ValueError as error:
        issues.append(RowIssue(row.line, external_id, "not_replayed", f"Labels not replayed: {error}."))
    else:
        validators = list(decision.labels[1:])
    judgments = tuple(
        ImportJudgment(annotator=code, round=_round_of(i), value={"label": label}, flags=dict(NO_FLAGS))
        for i, (code, label) in enumerate(zip(MNLI_VALIDATORS, validators, strict=False))
    )
    genre = row.genre or UNKNOWN_SOURCE
    record = ImportRecord(
        row=row.line,
        external_id=external_id,
        payload={
            "hypothesis": row.hypothesis,
            "label": (row.labels[0] if row.labels else None) or "",
            "tags": [],
            "release": {"gold_label": row.gold_label, "labels": list(row.labels)},
        },
        unit=ImportUnit(
            category=genre,
            name=_premise_name(row.prompt_id, row.premise),
            data={
                "text": row.premise,
                "source": genre,
                "topic": "",
                "document_id": row.prompt_id or "",
                "sentence_size": sentence_size(row.premise),
            },
        ),
        author=MNLI_AUTHOR,
        judgments=judgments,
        judging_round=max((j.round for j in judgments), default=0),
        expected=row.gold_label,
        known_answer=row.known_answer,
    )
    return record, issues


IMPORTERS: dict[str, Importer] = {IndoNliImporter.name: IndoNliImporter(), MnliImporter.name: MnliImporter()}
