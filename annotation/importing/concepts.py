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

MAX_NAME = 300


@dataclass(frozen=True)
class ConceptRow:
    line: int
    category: str
    concept: str
    translations: dict[str, str] = field(default_factory=dict)
    category_translations: dict[str, str] = field(default_factory=dict)


@dataclass
class ParseResult:
    rows: list[ConceptRow] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


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
    result = parse_csv(text, languages) if fmt == "csv" else parse_jsonl(text, languages)
    _check_duplicates(result)
    if not result.rows and not result.errors:
        result.errors.append("The file has no rows.")
    return result


def parse_csv(text: str, languages: set[str]) -> ParseResult:
    result = ParseResult()
    reader = csv.DictReader(io.StringIO(text))
    header = [h.strip() for h in (reader.fieldnames or [])]
    reader.fieldnames = header
    missing = {"category", "concept"} - set(header)
    if missing:
        result.errors.append(f"Line 1: the header needs the columns {', '.join(sorted(missing))}.")
        return result
    for column in header:
        for prefix in ("concept_", "category_"):
            if column.startswith(prefix) and column[len(prefix) :] not in languages:
                result.errors.append(
                    f"Line 1: column “{column}” is for language “{column[len(prefix) :]}”, "
                    f"which the project does not use ({', '.join(sorted(languages))})."
                )
    if result.errors:
        return result
    for record in reader:
        line = reader.line_num
        if None in record:
            result.errors.append(f"Line {line}: more cells than columns.")
            continue
        values = {k: (v or "").strip() for k, v in record.items()}
        if not any(values.values()):
            continue
        translations = {k[len("concept_") :]: v for k, v in values.items() if k.startswith("concept_") and v}
        cat_translations = {k[len("category_") :]: v for k, v in values.items() if k.startswith("category_") and v}
        _add_row(result, line, values.get("category", ""), values.get("concept", ""), translations, cat_translations)
    return result


def parse_jsonl(text: str, languages: set[str]) -> ParseResult:
    result = ParseResult()
    for line, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        try:
            record = json.loads(raw)
        except json.JSONDecodeError as exc:
            result.errors.append(f"Line {line}: not valid JSON ({exc.msg}).")
            continue
        if not isinstance(record, dict):
            result.errors.append(f"Line {line}: expected a JSON object.")
            continue
        translations = record.get("translations") or {}
        cat_translations = record.get("category_translations") or {}
        if not isinstance(translations, dict) or not isinstance(cat_translations, dict):
            result.errors.append(f"Line {line}: translations must be an object of language code to text.")
            continue
        unknown = (set(translations) | set(cat_translations)) - languages
        if unknown:
            result.errors.append(f"Line {line}: unknown language code(s) {', '.join(sorted(unknown))}.")
            continue
        _add_row(
            result,
            line,
            str(record.get("category") or "").strip(),
            str(record.get("concept") or "").strip(),
            {k: str(v).strip() for k, v in translations.items() if str(v).strip()},
            {k: str(v).strip() for k, v in cat_translations.items() if str(v).strip()},
        )
    return result


def _add_row(result: ParseResult, line: int, category: str, concept: str, tr: dict, cat_tr: dict) -> None:
    if not category:
        result.errors.append(f"Line {line}: the category is empty.")
    elif not concept:
        result.errors.append(f"Line {line}: the concept is empty.")
    elif len(category) > 200 or len(concept) > MAX_NAME:
        result.errors.append(f"Line {line}: the category or concept is too long.")
    else:
        result.rows.append(ConceptRow(line, category, concept, tr, cat_tr))


def _check_duplicates(result: ParseResult) -> None:
    first_seen: dict[tuple[str, str], int] = {}
    for row in result.rows:
        key = (row.category.casefold(), row.concept.casefold())
        if key in first_seen:
            result.errors.append(
                f"Line {row.line}: “{row.concept}” in “{row.category}” repeats line {first_seen[key]}."
            )
        else:
            first_seen[key] = row.line
