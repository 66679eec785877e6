"""What an importer yields: plain records and row issues, whatever the file's format.

An importer (a task type's `importers()` value) is a pure parser: it reads a binary file object as a
stream and never touches the database. The core engine (annotation.importing.engine) turns its records
into units, items, versions and judgments. Every oddity is a RowIssue with its row (a line number for
JSON Lines, a position for a JSON array); only a file that can't be read at all raises ImportFileError,
and then nothing is imported.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import IO, Any, ClassVar, NamedTuple

BinaryStream = IO[bytes]


class ImportFileError(ValueError):
    """The file as a whole can't be read, or names what the project can't hold; nothing is imported."""


@dataclass(frozen=True)
class RowIssue:
    row: int
    external_id: str
    code: str
    message: str


# Records are named tuples, not frozen dataclasses: an import of 100,000 items builds 600,000 of them,
# and a frozen dataclass's __init__ cost a tenth of the whole import. Their dicts are read-only: an
# empty default is one shared dict (_NONE), never to be changed.
_NONE: dict[str, Any] = {}


class ImportUnit(NamedTuple):
    """The catalog unit an item was written for (a concept, a premise): Category / Concept(data)."""

    category: str
    name: str
    data: dict[str, Any] = _NONE


class ImportJudgment(NamedTuple):
    annotator: str  # the annotator's code in the file (a Membership.code of the project)
    round: int
    value: dict[str, Any]
    flags: dict[str, Any] = _NONE
    comment: str = ""


class ImportRecord(NamedTuple):
    """One item of the file. `payload` is already in the task type's canonical form; `external_id` is
    yielded once per file (a repeated id is the importer's to report and skip)."""

    row: int
    external_id: str
    payload: dict[str, Any]
    unit: ImportUnit | None = None
    author: str | None = None  # code; None when the file does not say who wrote it
    judgments: tuple[ImportJudgment, ...] = ()
    judging_round: int = 0  # the highest round of the judgments (0: never judged)
    slot: int = 0
    source: str = "import"  # Item.Source
    status: str = "approved"  # Item.Status
    # What the file says the gold decision should give (checked after the recompute, e.g. a majority).
    expected: Any = None
    note: str = ""  # the version's note; "import (row N)" when empty
    # A code of the project's languages from the file's own column ("": the import's language). An
    # unknown code refuses the whole file with its row, rather than import items no language filter or
    # export would place.
    language: str = ""
    # The file's `known_answer` ("": an ordinary item): the item becomes a known-answer check with this
    # answer (annotation.services.known_answers); a value the task type can't expect refuses the file.
    known_answer: str = ""


def known_answer_text(value: Any) -> str:
    """A row's `known_answer` as the engine checks it: "" when absent or empty, any other value as text
    (a number or a list is then refused with its row, never dropped)."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value.strip()
    return json.dumps(value, ensure_ascii=False)


@dataclass(frozen=True)
class FileScan:
    """What a first pass over the file found: the annotator codes, in the project's order."""

    annotators: tuple[str, ...] = ()
    rows: int = 0
    extra: dict[str, Any] = field(default_factory=dict)


class Importer:
    """One file format of a task type. Subclasses set `name`, `label`, `judgment_kind` and implement
    `scan` (a first pass; may raise ImportFileError) and `records` (the second pass)."""

    name: ClassVar[str]
    label: ClassVar[str]
    help: ClassVar[str] = ""
    judgment_kind: ClassVar[str] = "answer"  # Judgment.kind of the judgments it yields
    judgments_word: ClassVar[str] = "judgments"  # what summaries call them ("answers", "labels")
    # The file's language when the command is not told (`import_items --language`).
    default_language: ClassVar[str] = "id"
    # Rows whose issues carry one of these codes were not imported at all.
    skipping_codes: ClassVar[frozenset[str]] = frozenset()
    # True when `scan` already refuses, with the row and field, every row whose record the database
    # couldn't hold (annotation.importing.checks); the engine then skips checking each record again.
    storable_rows: ClassVar[bool] = False

    def scan(self, stream: BinaryStream, *, known_annotators: Iterable[str], max_annotators: int) -> FileScan:
        raise NotImplementedError

    def records(self, stream: BinaryStream, *, scan: FileScan) -> Iterator[ImportRecord | RowIssue]:
        raise NotImplementedError

    def gold_issues(self, record: ImportRecord, details: dict[str, Any] | None) -> list[RowIssue]:
        """Compare what the file expected (`record.expected`) with the recomputed gold decision's details."""
        return []
