"""The KALAHI file format ("kalahi"): a pure, streaming parser of the released CSV (or the JSON Lines
our export writes), one prompt variant per row.

Columns: prompt_variation_id, prompt_id, category, topic, prompt, best_answer, relevant_answers,
irrelevant_answers (responses separated by `;`), and, as our export adds them: user, context,
personal_situation, instruction (the prompt's parts), author (the writer's code) and validations (a JSON
list of the validators' picks: validator, choice, order, seed). An optional known_answer (the MC1 option a
validator should pick: best, irrelevant_1, irrelevant_2, ...) makes the row a known-answer check. Without
parts, they are read back from the prompt's lines (payload.split_prompt); the prompt text is always kept
exactly.

The unit of an item is its (category, topic); the item's external id is prompt_variation_id. A row
without an id, a repeated id, or a best answer that is not among the relevant ones is skipped and
reported; response counts outside 3-5 are kept and reported. A file without the columns is refused.
A leading `'` that our CSV export puts before a cell starting with = + - @ is removed.
"""

from __future__ import annotations

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
    known_answer_text,
)
from annotation.importing.textfile import CsvRows, NotJson, check_row, json_line, text_lines
from annotation.task_types.cultural_prompt.judging import normalize_judgment
from annotation.task_types.cultural_prompt.payload import (
    MAX_RESPONSES,
    MIN_RESPONSES,
    SEPARATOR,
    assemble,
    split_prompt,
)

REQUIRED = (
    "prompt_variation_id",
    "prompt_id",
    "category",
    "topic",
    "prompt",
    "best_answer",
    "relevant_answers",
    "irrelevant_answers",
)
PART_COLUMNS = {"user": "user", "context": "context", "situation": "personal_situation", "instruction": "instruction"}
MAX_EXTERNAL_ID = 200
CODE_MAX_LENGTH = 40
SKIPPING = frozenset({"missing_id", "duplicate_id", "best_not_relevant", "no_prompt"})
_NEUTRALISED = ("'=", "'+", "'-", "'@", "'\t", "'\r")


def _cell(value: Any) -> str:
    if value is None:
        return ""
    text = value if isinstance(value, str) else str(value)
    return text[1:] if text.startswith(_NEUTRALISED) else text


def _rows(stream: BinaryStream) -> Iterator[tuple[int, dict[str, Any]]]:
    """(line, row) for CSV (the line where the row starts; the header is line 1) or JSON Lines."""
    first = next((line.lstrip()[:1] for _, line in text_lines(stream) if line.strip()), "")
    stream.seek(0)
    if first == "{":
        for number, line in text_lines(stream):
            if not line.strip():
                continue
            try:
                row = json_line(line)
            except NotJson as exc:
                raise ImportFileError(
                    f"Line {number} is not valid JSON ({exc.detail}); nothing was imported."
                ) from None
            if not isinstance(row, dict):
                raise ImportFileError(f"Line {number} is not an object; nothing was imported.")
            missing = [c for c in REQUIRED if c not in row]
            if missing:
                raise ImportFileError(f"Line {number} has no {', '.join(missing)}; nothing was imported.")
            check_row(number, row)
            yield number, row
        return
    reader = CsvRows(stream)
    missing = [c for c in REQUIRED if c not in reader.header]
    if missing:
        raise ImportFileError(
            f"The file is not a KALAHI CSV: it has no column {', '.join(missing)}; nothing was imported."
        )
    for number, row in reader:
        check_row(number, row)
        yield number, row


def _validations(row: dict[str, Any]) -> list[dict[str, Any]]:
    raw = row.get("validations")
    if raw in (None, ""):
        return []
    if isinstance(raw, str):
        try:
            raw = json_line(_cell(raw))
        except NotJson:
            return []
    return [v for v in raw if isinstance(v, dict)] if isinstance(raw, list) else []


def _code(value: Any) -> str:
    code = str(value or "").strip()
    if len(code) > CODE_MAX_LENGTH or not code.isprintable():
        raise ImportFileError(f"The annotator code {code[:50]!r} is not a code (at most {CODE_MAX_LENGTH} characters).")
    return code


class KalahiImporter(Importer):
    name = "kalahi"
    label = gettext_lazy("KALAHI prompts (CSV, responses separated by ;)")
    help = gettext_lazy(
        "prompt_variation_id, prompt_id, category, topic, prompt, best_answer, relevant_answers, "
        "irrelevant_answers (responses separated by ;); our export's user, context, personal_situation, "
        "instruction, author and validations columns are read when present. An optional known_answer (best, "
        "irrelevant_1, ...) makes the row a known-answer check."
    )
    judgment_kind = "validate"
    judgments_word = "picks"
    skipping_codes = SKIPPING

    def scan(self, stream: BinaryStream, *, known_annotators: Iterable[str], max_annotators: int) -> FileScan:
        codes: set[str] = {c for c in (str(k).strip() for k in known_annotators) if c}
        rows = 0
        for _, row in _rows(stream):
            rows += 1
            author = _cell(row.get("author")).strip()
            if author:
                codes.add(_code(author))
            for validation in _validations(row):
                codes.add(_code(validation.get("validator")))
            if len(codes) > max_annotators:
                raise ImportFileError(
                    f"The file names more than {max_annotators} annotators (a project setting); nothing was imported."
                )
        if rows == 0:
            raise ImportFileError("The file has no prompts; nothing was imported.")
        return FileScan(annotators=tuple(sorted(codes - {""})), rows=rows)

    def records(self, stream: BinaryStream, *, scan: FileScan) -> Iterator[ImportRecord | RowIssue]:
        seen: dict[str, int] = {}
        for number, row in _rows(stream):
            record, issues = _record(number, row, seen)
            yield from issues
            if record is not None:
                yield record


def _record(number: int, row: dict[str, Any], seen: dict[str, int]) -> tuple[ImportRecord | None, list[RowIssue]]:
    external_id = _cell(row.get("prompt_variation_id")).strip()
    if not external_id or len(external_id) > MAX_EXTERNAL_ID:
        return None, [RowIssue(number, "", "missing_id", "No usable prompt_variation_id; row skipped.")]
    if external_id in seen:
        message = f"The prompt_variation_id was already used in row {seen[external_id]}; row skipped."
        return None, [RowIssue(number, external_id, "duplicate_id", message)]
    seen[external_id] = number
    prompt = _cell(row.get("prompt")).replace("\r\n", "\n")
    if not prompt.strip():
        return None, [RowIssue(number, external_id, "no_prompt", "The prompt is empty; row skipped.")]
    relevant = [r.strip() for r in _cell(row.get("relevant_answers")).split(SEPARATOR) if r.strip()]
    irrelevant = [r.strip() for r in _cell(row.get("irrelevant_answers")).split(SEPARATOR) if r.strip()]
    best_answer = _cell(row.get("best_answer")).strip()
    if best_answer not in relevant:
        message = "The best answer is not one of the relevant answers; row skipped."
        return None, [RowIssue(number, external_id, "best_not_relevant", message)]
    issues = []
    for kind, responses in (("relevant", relevant), ("irrelevant", irrelevant)):
        if not MIN_RESPONSES <= len(responses) <= MAX_RESPONSES:
            message = f"{len(responses)} {kind} answers (the protocol asks for {MIN_RESPONSES}-{MAX_RESPONSES}); kept."
            issues.append(RowIssue(number, external_id, f"odd_{kind}_count", message))
    prompt_id = _cell(row.get("prompt_id")).strip()
    base = external_id.startswith(prompt_id) and external_id[len(prompt_id) :] in ("", "00")
    if any(row.get(column) not in (None, "") for column in PART_COLUMNS.values()):
        parts = {part: _cell(row.get(column)) for part, column in PART_COLUMNS.items()}
        if assemble(parts) != prompt:
            parts = split_prompt(prompt, variant=not base)
    else:
        parts = split_prompt(prompt, variant=not base)
    category = _cell(row.get("category")).strip()
    topic = _cell(row.get("topic")).strip()
    payload = {
        "prompt_id": prompt_id,
        "variation_id": external_id,
        "category": category,
        "topic": topic,
        **parts,
        "prompt": prompt,
        "relevant": relevant,
        "irrelevant": irrelevant,
        "best": relevant.index(best_answer),
    }
    judgments = []
    for validation in _validations(row):
        if not str(validation.get("validator") or "").strip():
            issues.append(RowIssue(number, external_id, "odd_validation", "A validation names no validator; left out."))
            continue
        try:
            clean = normalize_judgment({"value": validation, "comment": validation.get("comment") or ""})
        except Exception as exc:  # noqa: BLE001 - any refusal of a pick is reported, the row is kept
            issues.append(RowIssue(number, external_id, "odd_validation", f"A validation was not read: {exc}"))
            continue
        round_ = validation.get("round") if isinstance(validation.get("round"), int) else 1
        judgments.append(
            ImportJudgment(
                annotator=str(validation.get("validator") or "").strip(),
                round=round_,
                value=clean.value,
                flags=clean.flags,
                comment=clean.comment,
            )
        )
    author = _cell(row.get("author")).strip() or None
    record = ImportRecord(
        row=number,
        external_id=external_id,
        payload=payload,
        unit=ImportUnit(category=category or "unknown", name=topic or "unknown"),
        author=author,
        judgments=tuple(judgments),
        judging_round=max((j.round for j in judgments), default=0),
        known_answer=known_answer_text(row.get("known_answer")),
    )
    return record, issues


IMPORTERS: dict[str, Importer] = {KalahiImporter.name: KalahiImporter()}
