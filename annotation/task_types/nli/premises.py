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

from django.utils.translation import gettext

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
        raise InvalidInput(gettext("A premise must be an object."), field_errors={"data": [gettext("Give an object.")]})
    values = {name: data.get(name) for name in ("text", "source", "topic", "document_id")}
    errors: dict[str, list[str]] = {}
    texts: dict[str, str] = {}
    for name, value in values.items():
        if value is not None and (not isinstance(value, str | int) or isinstance(value, bool)):
            errors[name] = [limits.NOT_TEXT]
            continue
        texts[name] = " ".join(str(value if value is not None else "").split())
    if errors:
        raise InvalidInput(gettext("The premise can't be stored."), field_errors=errors)
    errors = limits.text_errors(
        [
            ("text", texts["text"], PREMISE_TEXT),
            ("topic", texts["topic"], SHORT_TEXT),
            ("document_id", texts["document_id"], SHORT_TEXT),
        ]
    )
    if not texts["text"]:
        errors.setdefault("text", []).append(gettext("The premise text is empty."))
    if texts["source"].casefold() not in SOURCES:
        errors.setdefault("source", []).append(
            gettext("The source genre “%(shown)s” is none of %(join)s.")
            % {"shown": limits.shown(texts["source"]), "join": ", ".join(SOURCES)}
        )
    if not texts["document_id"]:
        errors.setdefault("document_id", []).append(gettext("The document id is empty."))
    if word_limit is not None and not errors.get("text"):
        count = len(tokens(texts["text"]))
        if count > word_limit:
            errors.setdefault("text", []).append(
                gettext("The premise has %(count)s words; at most %(word_limit)s are allowed.")
                % {"count": count, "word_limit": word_limit}
            )
    if errors:
        raise InvalidInput(gettext("The premise can't be stored."), field_errors=errors)
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
                    result.errors.append(
                        gettext("Line %(line_num)s: more cells than columns.") % {"line_num": reader.line_num}
                    )
                    continue
                if any((v or "").strip() for v in record.values()):
                    yield reader.line_num, record
        except csv.Error as exc:
            result.errors.append(
                gettext("Line %(line_num)s: not valid CSV (%(exc)s).")
                % {"line_num": reader.reader.line_num, "exc": exc}
            )
        return
    for line, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        try:
            record = json.loads(raw)
        except (ValueError, RecursionError):
            result.errors.append(gettext("Line %(line)s: not valid JSON.") % {"line": line})
            continue
        if not isinstance(record, dict):
            result.errors.append(gettext("Line %(line)s: expected a JSON object.") % {"line": line})
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
            result.errors.append(gettext("Stopped reading after %(MAX_ERRORS)s problems.") % {"MAX_ERRORS": MAX_ERRORS})
            break
        try:
            data = unit_clean(
                {name: _pick(record, name) for name in ("text", "source", "topic", "document_id")},
                word_limit=word_limit,
            )
        except InvalidInput as exc:
            for field_name, messages in exc.field_errors.items():
                result.errors.append(
                    gettext("Line %(line)s, %(field_name)s: %(join)s")
                    % {"line": line, "field_name": field_name, "join": " ".join(messages)}
                )
            continue
        key = (data["document_id"], data["text"])
        if key in seen:
            result.errors.append(
                gettext("Line %(line)s: the same premise as line %(seen)s.") % {"line": line, "seen": seen[key]}
            )
            continue
        seen[key] = line
        name = known.get(key)
        if name is None:
            document_lines[data["document_id"]].append(f"line {line}")
            count = len(document_lines[data["document_id"]])
            if count > per_document:
                firsts = ", ".join(document_lines[data["document_id"]][:per_document])
                result.errors.append(
                    gettext(
                        "Line %(line)s: document “%(data)s” would have %(count)s premises; at most "
                        "%(per_document)s per document (%(firsts)s)."
                    )
                    % {
                        "line": line,
                        "data": data["document_id"],
                        "count": count,
                        "per_document": per_document,
                        "firsts": firsts,
                    }
                )
                continue
            given = _pick(record, "premise_id")
            name = str(given).strip() if given not in (None, "") else f"{data['document_id']}#{count}"
            problem = limits.text_problem(name, max_length=limits.CONCEPT_NAME)
            if problem:
                result.errors.append(
                    gettext("Line %(line)s, premise_id: %(problem)s") % {"line": line, "problem": problem}
                )
                continue
            if name.casefold() in names:
                result.errors.append(
                    gettext("Line %(line)s: premise id “%(name)s” is already used by another premise.")
                    % {"line": line, "name": name}
                )
                continue
            names.add(name.casefold())
        result.rows.append(ConceptRow(line, data["source"], name, data=data))
    if not result.rows and not result.errors:
        result.errors.append(gettext("The file has no premises."))
    return result
