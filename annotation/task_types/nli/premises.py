"""Premises: the unit an NLI writer is given (a Concept whose data holds the premise), and their import.

Concept.data = {"text", "source" (wiki | news | web), "topic", "document_id", "sentence_size"}; the
concept's category is the source genre (so the authoring planner balances writers over genres) and its
name is the premise id (the file's `premise_id`, else "<document_id>#<n>").

An import file is CSV (header) or JSON Lines with text, source, topic, document_id (premise_id
optional). Every bad line refuses the whole file, named by its line number: an empty text, an unknown
genre, a premise longer than the word limit, a document with more premises than the project allows
(the paper limits the snippets taken from one document; the lines past the limit are named). A premise
already in the project (same document, same text) is the same unit, so importing a file twice adds nothing.
"""

from __future__ import annotations

import csv
import io
import json
from collections import defaultdict
from collections.abc import Iterator
from typing import Any

from annotation import limits
from annotation.errors import InvalidInput
from annotation.importing.concepts import MAX_ERRORS, ConceptRow, ParseResult
from annotation.task_types.nli.corpus import sentence_size
from annotation.task_types.nli.text import tokens

SOURCES = ("wiki", "news", "web")
PREMISE_TEXT = 5000  # characters; 200 words of Indonesian news text are ~1,500
SHORT_TEXT = 200  # topic, document id, premise id
_COLUMNS = {
    "text": ("text", "premise"),
    "source": ("source", "genre"),
    "topic": ("topic", "topics"),
    "document_id": ("document_id", "document", "doc_id"),
    "premise_id": ("premise_id",),
}


def unit_clean(data: dict[str, Any], *, word_limit: int | None = None) -> dict[str, Any]:
    """A premise's Concept.data, validated, with the sentence size computed from the text."""
    if not isinstance(data, dict):
        raise InvalidInput("A premise must be an object.", field_errors={"data": ["Give an object."]})
    values = {name: data.get(name) for name in ("text", "source", "topic", "document_id")}
    errors: dict[str, list[str]] = {}
    texts: dict[str, str] = {}
    for name, value in values.items():
        if value is not None and (not isinstance(value, str | int) or isinstance(value, bool)):
            errors[name] = [limits.NOT_TEXT]
            continue
        texts[name] = " ".join(str(value if value is not None else "").split())
    if errors:
        raise InvalidInput("The premise can't be stored.", field_errors=errors)
    errors = limits.text_errors(
        [
            ("text", texts["text"], PREMISE_TEXT),
            ("topic", texts["topic"], SHORT_TEXT),
            ("document_id", texts["document_id"], SHORT_TEXT),
        ]
    )
    if not texts["text"]:
        errors.setdefault("text", []).append("The premise text is empty.")
    if texts["source"].casefold() not in SOURCES:
        errors.setdefault("source", []).append(
            f"The source genre “{limits.shown(texts['source'])}” is none of {', '.join(SOURCES)}."
        )
    if not texts["document_id"]:
        errors.setdefault("document_id", []).append("The document id is empty.")
    if word_limit is not None and not errors.get("text"):
        count = len(tokens(texts["text"]))
        if count > word_limit:
            errors.setdefault("text", []).append(f"The premise has {count} words; at most {word_limit} are allowed.")
    if errors:
        raise InvalidInput("The premise can't be stored.", field_errors=errors)
    return {
        "text": texts["text"],
        "source": texts["source"].casefold(),
        "topic": texts["topic"],
        "document_id": texts["document_id"],
        "sentence_size": sentence_size(texts["text"]),
    }


def _records(text: str, fmt: str, result: ParseResult) -> Iterator[tuple[int, dict[str, Any]]]:
    if fmt == "csv":
        reader = csv.DictReader(io.StringIO(text))
        try:
            reader.fieldnames = [h.strip().casefold() for h in (reader.fieldnames or [])]
            for record in reader:
                if None in record:
                    result.errors.append(f"Line {reader.line_num}: more cells than columns.")
                    continue
                if any((v or "").strip() for v in record.values()):
                    yield reader.line_num, record
        except csv.Error as exc:
            result.errors.append(f"Line {reader.reader.line_num}: not valid CSV ({exc}).")
        return
    for line, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        try:
            record = json.loads(raw)
        except (ValueError, RecursionError):
            result.errors.append(f"Line {line}: not valid JSON.")
            continue
        if not isinstance(record, dict):
            result.errors.append(f"Line {line}: expected a JSON object.")
            continue
        yield line, record


def _pick(record: dict[str, Any], name: str) -> Any:
    for column in _COLUMNS[name]:
        if column in record:
            return record[column]
    return None


def parse_premises(text: str, fmt: str, *, settings: dict[str, Any], existing: list[Any]) -> ParseResult:
    """Premise rows (category = genre, concept = premise id, data = the premise) or the file's problems.

    `existing`: the project's units as (category, name, data), to match premises already imported and
    to count each document's premises across files.
    """
    result = ParseResult()
    per_document = settings["premises_per_document"]
    word_limit = settings["paragraph_word_limit"]
    known: dict[tuple[str, str], str] = {}  # (document id, text) -> premise id
    names: set[str] = set()
    document_lines: dict[str, list[str]] = defaultdict(list)  # premises by document, in order
    for _, name, data in existing:
        names.add(name.casefold())
        if data.get("document_id"):
            known[(data["document_id"], data.get("text", ""))] = name
            document_lines[data["document_id"]].append("already imported")
    seen: dict[tuple[str, str], int] = {}
    for line, record in _records(text, fmt, result):
        if len(result.errors) >= MAX_ERRORS:
            result.errors.append(f"Stopped reading after {MAX_ERRORS} problems.")
            break
        try:
            data = unit_clean(
                {name: _pick(record, name) for name in ("text", "source", "topic", "document_id")},
                word_limit=word_limit,
            )
        except InvalidInput as exc:
            for field_name, messages in exc.field_errors.items():
                result.errors.append(f"Line {line}, {field_name}: {' '.join(messages)}")
            continue
        key = (data["document_id"], data["text"])
        if key in seen:
            result.errors.append(f"Line {line}: the same premise as line {seen[key]}.")
            continue
        seen[key] = line
        name = known.get(key)
        if name is None:
            document_lines[data["document_id"]].append(f"line {line}")
            count = len(document_lines[data["document_id"]])
            if count > per_document:
                firsts = ", ".join(document_lines[data["document_id"]][:per_document])
                result.errors.append(
                    f"Line {line}: document “{data['document_id']}” would have {count} premises; at most "
                    f"{per_document} per document ({firsts})."
                )
                continue
            given = _pick(record, "premise_id")
            name = str(given).strip() if given not in (None, "") else f"{data['document_id']}#{count}"
            problem = limits.text_problem(name, max_length=limits.CONCEPT_NAME)
            if problem:
                result.errors.append(f"Line {line}, premise_id: {problem}")
                continue
            if name.casefold() in names:
                result.errors.append(f"Line {line}: premise id “{name}” is already used by another premise.")
                continue
            names.add(name.casefold())
        result.rows.append(ConceptRow(line, data["source"], name, data=data))
    if not result.rows and not result.errors:
        result.errors.append("The file has no premises.")
    return result
