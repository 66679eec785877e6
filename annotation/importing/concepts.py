"""Parse a categories x concepts file (CSV or JSON Lines) into rows, reporting bad lines by number.

CSV: a header with `category` and `concept`, and optionally `category_<lang>` / `concept_<lang>`
columns for translations into the project's languages.
JSON Lines: {"category": ..., "concept": ..., "translations": {"<lang>": "..."},
"category_translations": {"<lang>": "..."}} per line.
"""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext

from annotation import limits

# Enough to fix a file by; a file of junk must not build a response of millions of messages.
MAX_ERRORS = 200


@dataclass(frozen=True)
class ConceptRow:
    line: int
    category: str
    concept: str
    translations: dict[str, str] = field(default_factory=dict)
    category_translations: dict[str, str] = field(default_factory=dict)
    # The unit's task-type attributes (Concept.data), from a task type's own parser (e.g. a premise).
    data: dict[str, Any] = field(default_factory=dict)


class _Stop(Exception):
    """Enough is known to refuse the file: stop reading it."""


@dataclass
class ParseResult:
    rows: list[ConceptRow] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def error(self, message: str) -> None:
        self.errors.append(message)
        if len(self.errors) >= MAX_ERRORS:
            self.errors.append(gettext("Stopped reading after %(MAX_ERRORS)s problems.") % {"MAX_ERRORS": MAX_ERRORS})
            raise _Stop


def detect_format(filename: str, text: str) -> str:
    name = filename.lower()
    if name.endswith((".jsonl", ".ndjson", ".json")):
        return "jsonl"
    if name.endswith((".csv", ".tsv", ".txt")):
        return "csv"
    return "jsonl" if text.lstrip().startswith("{") else "csv"


def decode(data: bytes) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ValueError(f"The file is not UTF-8 (byte {exc.start}). Save it as UTF-8 and try again.") from None


def parse_concepts(text: str, fmt: str, languages: set[str]) -> ParseResult:
    result = ParseResult()
    try:
        parse_csv(text, languages, result) if fmt == "csv" else parse_jsonl(text, languages, result)
        _check_duplicates(result)
        if not result.rows and not result.errors:
            result.error("The file has no rows.")
    except _Stop:
        pass
    return result


def parse_csv(text: str, languages: set[str], result: ParseResult) -> ParseResult:
    reader = csv.DictReader(io.StringIO(text))
    try:
        header = [h.strip() for h in (reader.fieldnames or [])]
    except csv.Error as exc:
        result.error(_csv_error(reader.reader.line_num or 1, exc))
        return result
    reader.fieldnames = header
    missing = {"category", "concept"} - set(header)
    if missing:
        result.error(f"Line 1: the header needs the columns {', '.join(sorted(missing))}.")
        return result
    for column in header:
        for prefix in ("concept_", "category_"):
            if column.startswith(prefix) and column[len(prefix) :] not in languages:
                result.error(
                    f"Line 1: column “{column}” is for language “{column[len(prefix) :]}”, "
                    f"which the project does not use ({', '.join(sorted(languages))})."
                )
    if result.errors:
        return result
    try:
        _csv_rows(reader, result)
    except csv.Error as exc:
        # The reader can't go on past a malformed line: report it with the problems found so far.
        # DictReader's own line_num is only updated after a row is read: ask its reader.
        result.error(_csv_error(reader.reader.line_num, exc))
    return result


def _csv_error(line: int, exc: csv.Error) -> str:
    if "field larger than field limit" in str(exc):
        return (
            f"Line {line}: a cell is longer than {csv.field_size_limit():,} characters "
            f"(a concept may have {limits.CONCEPT_NAME})."
        )
    return f"Line {line}: not valid CSV ({exc})."


def _csv_rows(reader: csv.DictReader, result: ParseResult) -> None:
    for record in reader:
        line = reader.line_num
        if None in record:
            result.error(f"Line {line}: more cells than columns.")
            continue
        values = {k: (v or "").strip() for k, v in record.items()}
        if not any(values.values()):
            continue
        translations = {k[len("concept_") :]: v for k, v in values.items() if k.startswith("concept_") and v}
        cat_translations = {k[len("category_") :]: v for k, v in values.items() if k.startswith("category_") and v}
        _add_row(result, line, values.get("category", ""), values.get("concept", ""), translations, cat_translations)


def parse_jsonl(text: str, languages: set[str], result: ParseResult) -> ParseResult:
    for line, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        try:
            record = json.loads(raw)
        except json.JSONDecodeError as exc:
            result.error(f"Line {line}: not valid JSON ({exc.msg}).")
            continue
        except ValueError:  # Python refuses integers of more than 4,300 digits
            result.error(f"Line {line}: not valid JSON (a number has more than 4,300 digits).")
            continue
        except RecursionError:
            result.error(f"Line {line}: not valid JSON (nested too deeply).")
            continue
        if not isinstance(record, dict):
            result.error(f"Line {line}: expected a JSON object.")
            continue
        translations = record.get("translations") or {}
        cat_translations = record.get("category_translations") or {}
        if not isinstance(translations, dict) or not isinstance(cat_translations, dict):
            result.error(f"Line {line}: translations must be an object of language code to text.")
            continue
        unknown = (set(translations) | set(cat_translations)) - languages
        if unknown:
            shown = ", ".join(sorted(limits.shown(code) for code in unknown))
            result.error(f"Line {line}: unknown language code(s) {shown}.")
            continue
        values = {"category": record.get("category"), "concept": record.get("concept")}
        values |= {f"concept_{k}": v for k, v in translations.items()}
        values |= {f"category_{k}": v for k, v in cat_translations.items()}
        not_text = [name for name, value in values.items() if not _is_text(value)]
        if not_text:
            result.error(f"Line {line}: {', '.join(not_text)} must be text.")
            continue
        texts = {name: str(value if value is not None else "").strip() for name, value in values.items()}
        _add_row(
            result,
            line,
            texts["category"],
            texts["concept"],
            {k: texts[f"concept_{k}"] for k in translations if texts[f"concept_{k}"]},
            {k: texts[f"category_{k}"] for k in cat_translations if texts[f"category_{k}"]},
        )
    return result


def _is_text(value: Any) -> bool:
    return value is None or (isinstance(value, str | int | float) and not isinstance(value, bool))


def _add_row(result: ParseResult, line: int, category: str, concept: str, tr: dict, cat_tr: dict) -> None:
    if not category:
        result.error(f"Line {line}: the category is empty.")
        return
    if not concept:
        result.error(f"Line {line}: the concept is empty.")
        return
    texts = [
        ("category", category, limits.CATEGORY_NAME),
        ("concept", concept, limits.CONCEPT_NAME),
        *((f"concept_{code}", text, limits.CONCEPT_NAME) for code, text in tr.items()),
        *((f"category_{code}", text, limits.CATEGORY_NAME) for code, text in cat_tr.items()),
    ]
    problems = limits.text_errors(texts)
    for name, messages in problems.items():
        result.error(f"Line {line}, {name}: {' '.join(messages)}")
    if problems:
        return
    if len(result.rows) >= limits.CONCEPT_ROWS:
        result.error(f"Line {line}: a file may have at most {limits.CONCEPT_ROWS:,} rows; split it.")
        raise _Stop
    result.rows.append(ConceptRow(line, category, concept, tr, cat_tr))


def _check_duplicates(result: ParseResult) -> None:
    first_seen: dict[tuple[str, str], int] = {}
    for row in result.rows:
        key = (row.category.casefold(), row.concept.casefold())
        if key in first_seen:
            result.error(f"Line {row.line}: “{row.concept}” in “{row.category}” repeats line {first_seen[key]}.")
        else:
            first_seen[key] = row.line
