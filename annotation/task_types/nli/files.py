"""Parse released NLI files into plain rows: IndoNLI JSON Lines and MNLI/SNLI-style JSON Lines.

Streaming: the readers are generators over the file's lines, so memory stays constant whatever the
file's size. Each line gives either a row or a RefusedLine (not JSON, not an object, text a database
can't hold, a list where one value belongs, no premise or hypothesis text), always with its line
number; the first line that is not UTF-8 raises ImportFileError at once (a UTF-16 file is one error).
An odd value (an unknown label, split or sentence size) is kept as the file gave it and reported as a
Note on the row; nothing is guessed.
The IndoNLI diagnostic set ships as one JSON array instead; read_diagnostic reads it whole (650 pairs).
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from annotation.importing.records import known_answer_text
from annotation.importing.textfile import NotJson, json_line, not_utf8, row_problem
from annotation.task_types.nli.corpus import SIZES
from annotation.task_types.nli.labels import UnknownLabel, UnknownPhenomenon, normalize_label, normalize_phenomenon

DATA_SPLITS = frozenset({"train", "dev", "test"})
ANNOTATOR_TYPES = frozenset({"lay", "expert"})
ROUNDS = frozenset({1, 2, 3})
MNLI_LABEL_FIELDS = ("label1", "label2", "label3", "label4", "label5")
MNLI_SCALARS = (*MNLI_LABEL_FIELDS, "gold_label", "pairID", "pairid", "promptID", "promptid", "captionID", "genre")

Source = str | Path | bytes | IO[bytes] | IO[str] | Iterable[str] | Iterable[bytes]


@dataclass(frozen=True)
class Note:
    line: int
    field: str
    value: Any
    message: str


@dataclass(frozen=True)
class RefusedLine:
    line: int
    message: str


@dataclass(frozen=True)
class IndoNliRow:
    line: int
    pair_id: str | None
    premise_id: str | None
    premise: str
    hypothesis: str
    label: str | None  # canonical; None when missing or odd (the file's value is in raw_label)
    raw_label: Any
    data_split: str | None  # kept as the file gave them, odd values noted
    annotator_type: str | None
    sentence_size: str | None
    author_label: str | None = None
    annotation_round: int | None = None
    phenomena: tuple[str, ...] = ()  # canonical tags (diagnostic set); unknown ones are noted, not kept
    notes: tuple[Note, ...] = ()
    known_answer: str = ""  # the label a known-answer check expects ("": an ordinary pair)


@dataclass(frozen=True)
class MnliRow:
    line: int
    pair_id: str | None
    prompt_id: str | None
    premise: str
    hypothesis: str
    genre: str | None
    gold_label: str | None  # canonical; None for "-" (no gold) and for odd values (see raw_gold_label)
    raw_gold_label: Any
    labels: tuple[str | None, ...]  # label1 (the author's) .. label5, canonical, None where empty or odd
    notes: tuple[Note, ...] = ()
    known_answer: str = ""  # the label a known-answer check expects ("": an ordinary pair)


# --- reading lines ---------------------------------------------------------------------------------


def _binary_lines(source: Source) -> Iterator[bytes | str]:
    if isinstance(source, str | Path):
        with open(source, "rb") as handle:
            yield from handle
    elif isinstance(source, bytes):
        yield from io.BytesIO(source)
    else:
        yield from source  # a file object or any iterable of lines, text or bytes


def _lines(source: Source) -> Iterator[tuple[int, str]]:
    """(line number, text) from 1. Blank lines are skipped; the first line that is not UTF-8 refuses
    the file (ImportFileError) once: a UTF-16 file is one message, not one per line."""
    for number, raw in enumerate(_binary_lines(source), start=1):
        if isinstance(raw, bytes):
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError:
                raise not_utf8(number) from None
        else:
            text = raw
        if number == 1:
            text = text.removeprefix("\ufeff")  # a BOM left by spreadsheet exports
        if text.strip():
            yield number, text


def _objects(source: Source) -> Iterator[tuple[int, dict | RefusedLine]]:
    for number, text in _lines(source):
        try:
            value = json_line(text)
        except NotJson as error:
            yield number, RefusedLine(number, str(error))
            continue
        if not isinstance(value, dict):
            yield number, RefusedLine(number, f"a JSON {type(value).__name__}, not an object with fields")
            continue
        found = row_problem(value)
        if found is not None:
            yield number, RefusedLine(number, f"{found[0]}: {found[1]}")
            continue
        yield number, value


# --- field helpers -----------------------------------------------------------------------------------


class _Notes:
    def __init__(self, line: int) -> None:
        self.line = line
        self.items: list[Note] = []

    def add(self, field: str, value: Any, message: str) -> None:
        self.items.append(Note(self.line, field, value, message))


def _text(obj: dict, *names: str) -> str | None:
    for name in names:
        value = obj.get(name)
        if isinstance(value, str) and value.strip():
            return value.strip()
    return None


def _identifier(obj: dict, names: tuple[str, ...], notes: _Notes, *, required: bool) -> str | None:
    for name in names:
        if name not in obj:
            continue
        value = obj[name]
        if (
            isinstance(value, bool)
            or not isinstance(value, int | str)
            or (isinstance(value, str) and not value.strip())
        ):
            notes.add(name, value, f"{name} should be an integer or a text id")
            return None
        return str(value).strip()
    if required:
        notes.add(names[0], None, f"{names[0]} is missing")
    return None


def _label(obj: dict, name: str, notes: _Notes, *, required: bool) -> tuple[str | None, Any]:
    raw = obj.get(name)
    if raw is None:
        if required:
            notes.add(name, None, f"{name} is missing")
        return None, None
    try:
        label = normalize_label(raw)
    except UnknownLabel as error:
        notes.add(name, raw, str(error))
        return None, raw
    if label is None and required:
        notes.add(name, raw, f"{name} is empty")
    return label, raw


def _choice(obj: dict, name: str, allowed: Iterable[str], notes: _Notes, *, required: bool) -> str | None:
    value = obj.get(name)
    if value is None:
        if required:
            notes.add(name, None, f"{name} is missing")
        return None
    if value not in allowed:
        notes.add(name, value, f"unknown {name} {value!r}: expected one of {', '.join(sorted(allowed))}; kept as given")
    return value if isinstance(value, str) else str(value)


# Fields that hold one value: a list or an object there is not an odd value to keep, it is a wrong file.
SCALARS = (
    "pair_id",
    "premise_id",
    "label",
    "author_label",
    "data_split",
    "annotator_type",
    "sentence_size",
    "annotation_round",
)


def _json_type(value: Any) -> str:
    return "array" if isinstance(value, list) else "object"


# --- IndoNLI ---------------------------------------------------------------------------------------


def _indonli_row(obj: dict, line: int, *, diagnostic: bool = False) -> IndoNliRow | RefusedLine:
    premise, hypothesis = _text(obj, "premise"), _text(obj, "hypothesis")
    if premise is None or hypothesis is None:
        missing = "premise" if premise is None else "hypothesis"
        return RefusedLine(line, f"no {missing} text")
    for name in SCALARS:
        if isinstance(obj.get(name), list | dict):
            return RefusedLine(line, f"{name} is a JSON {_json_type(obj[name])}, not a single value")
    notes = _Notes(line)
    required = not diagnostic  # the diagnostic array has only pair_id, label, texts and tags
    label, raw_label = _label(obj, "label", notes, required=True)
    author_label, _ = _label(obj, "author_label", notes, required=False)
    annotation_round = obj.get("annotation_round")
    if annotation_round is not None and (isinstance(annotation_round, bool) or annotation_round not in ROUNDS):
        notes.add("annotation_round", annotation_round, "annotation_round should be 1, 2 or 3")
        annotation_round = None
    phenomena = []
    raw_tags = obj.get("inference_phenomena")
    if raw_tags is not None and not isinstance(raw_tags, list):
        notes.add("inference_phenomena", raw_tags, "inference_phenomena should be a list of tags")
        raw_tags = None
    for tag in raw_tags or ():
        try:
            phenomena.append(normalize_phenomenon(tag))
        except UnknownPhenomenon as error:
            notes.add("inference_phenomena", tag, str(error))
    return IndoNliRow(
        line=line,
        pair_id=_identifier(obj, ("pair_id",), notes, required=True),
        premise_id=_identifier(obj, ("premise_id",), notes, required=required),
        premise=premise,
        hypothesis=hypothesis,
        label=label,
        raw_label=raw_label,
        data_split=_choice(obj, "data_split", DATA_SPLITS, notes, required=required),
        annotator_type=_choice(obj, "annotator_type", ANNOTATOR_TYPES, notes, required=required),
        sentence_size=_choice(obj, "sentence_size", SIZES, notes, required=required),
        author_label=author_label,
        annotation_round=annotation_round,
        phenomena=tuple(dict.fromkeys(phenomena)),
        notes=tuple(notes.items),
        known_answer=known_answer_text(obj.get("known_answer")),
    )


def read_indonli(source: Source) -> Iterator[IndoNliRow | RefusedLine]:
    """IndoNLI JSON Lines (pair_id, premise_id, premise, hypothesis, label, data_split, annotator_type,
    sentence_size; optional author_label, annotation_round, inference_phenomena), one result per line."""
    for number, obj in _objects(source):
        yield obj if isinstance(obj, RefusedLine) else _indonli_row(obj, number)


def read_diagnostic(source: str | Path | bytes) -> list[IndoNliRow | RefusedLine]:
    """The diagnostic set: one JSON array of pairs with inference_phenomena. `line` is the item's
    position in the array (from 1). A file that is not a JSON array raises ValueError."""
    data = source if isinstance(source, bytes) else Path(source).read_bytes()
    try:
        items = json.loads(data.decode("utf-8-sig"))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ValueError(f"the diagnostic file is not a JSON array: {error}") from error
    if not isinstance(items, list):
        raise ValueError(f"the diagnostic file holds a JSON {type(items).__name__}, not an array")
    return [
        _indonli_row(item, number, diagnostic=True)
        if isinstance(item, dict)
        else RefusedLine(number, f"item {number} is a JSON {type(item).__name__}, not an object")
        for number, item in enumerate(items, start=1)
    ]


# --- MNLI / SNLI -----------------------------------------------------------------------------------


def _mnli_row(obj: dict, line: int) -> MnliRow | RefusedLine:
    premise, hypothesis = _text(obj, "sentence1"), _text(obj, "sentence2")
    if premise is None or hypothesis is None:
        return RefusedLine(line, f"no {'sentence1' if premise is None else 'sentence2'} text")
    for name in MNLI_SCALARS:
        if isinstance(obj.get(name), list | dict):
            return RefusedLine(line, f"{name} is a JSON {_json_type(obj[name])}, not a single value")
    notes = _Notes(line)
    gold, raw_gold = _label(obj, "gold_label", notes, required=False)
    if "gold_label" not in obj:
        notes.add("gold_label", None, "gold_label is missing")
    if any(name in obj for name in MNLI_LABEL_FIELDS):
        labels = tuple(_label(obj, name, notes, required=name == "label1")[0] for name in MNLI_LABEL_FIELDS)
    elif isinstance(obj.get("annotator_labels"), list):
        # SNLI's JSON Lines carry the same labels as a list (author first) instead of label1..label5
        labels = tuple(
            _label({"annotator_labels": value}, "annotator_labels", notes, required=False)[0]
            for value in obj["annotator_labels"]
        )
    else:
        notes.add("label1", None, "no individual labels (label1..label5 or annotator_labels)")
        labels = ()
    return MnliRow(
        line=line,
        pair_id=_identifier(obj, ("pairID", "pairid"), notes, required=True),
        prompt_id=_identifier(obj, ("promptID", "promptid", "captionID"), notes, required=False),
        premise=premise,
        hypothesis=hypothesis,
        genre=obj.get("genre") if isinstance(obj.get("genre"), str) else None,
        gold_label=gold,
        raw_gold_label=raw_gold,
        labels=labels,
        notes=tuple(notes.items),
        known_answer=known_answer_text(obj.get("known_answer")),
    )


def read_mnli(source: Source) -> Iterator[MnliRow | RefusedLine]:
    """MNLI/SNLI-style JSON Lines (sentence1, sentence2, gold_label, pairID, promptID, genre,
    label1..label5), one result per line."""
    for number, obj in _objects(source):
        yield obj if isinstance(obj, RefusedLine) else _mnli_row(obj, number)
