"""Import English CommonsenseQA as JSON Lines, all or nothing, every bad line reported by number.

Accepted per line (the Hugging Face shape the issue names, and the original release's nesting):
  {"id", "question", "question_concept", "choices": {"label": [A-E], "text": [5]}, "answerKey"}
  {"id", "answerKey", "question": {"stem", "question_concept", "choices": [{"label", "text"}]}}
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from annotation.errors import InvalidInput

LABELS = ("A", "B", "C", "D", "E")
MAX_LINES = 50_000
MAX_LINE_CHARS = 20_000
MAX_REPORTED = 50


@dataclass(frozen=True)
class EnglishQuestion:
    line: int
    id: str
    question: str
    concept: str
    choices: tuple[str, ...]  # A-E
    answer: str


def _choices(raw: Any) -> dict[str, str] | None:
    if isinstance(raw, dict) and isinstance(raw.get("label"), list) and isinstance(raw.get("text"), list):
        return {
            str(label).strip().upper(): str(text).strip()
            for label, text in zip(raw["label"], raw["text"], strict=False)
        }
    if isinstance(raw, list) and all(isinstance(c, dict) for c in raw):
        return {str(c.get("label", "")).strip().upper(): str(c.get("text", "")).strip() for c in raw}
    return None


def parse_line(value: Any) -> tuple[dict[str, Any] | None, str | None]:
    if not isinstance(value, dict):
        return None, "not a JSON object"
    question = value.get("question")
    concept = value.get("question_concept")
    choices_raw = value.get("choices")
    if isinstance(question, dict):  # the original release nests them
        concept = question.get("question_concept")
        choices_raw = question.get("choices")
        question = question.get("stem")
    qid = value.get("id")
    if not isinstance(qid, str | int) or isinstance(qid, bool) or not str(qid).strip():
        return None, "no id"
    if not isinstance(question, str) or not question.strip():
        return None, "no question"
    if not isinstance(concept, str) or not concept.strip():
        return None, "no question_concept"
    choices = _choices(choices_raw)
    if choices is None or sorted(choices) != list(LABELS) or not all(choices.values()):
        return None, "choices must be five non-empty options labelled A-E"
    answer = value.get("answerKey")
    if not isinstance(answer, str) or answer.strip().upper() not in LABELS:
        return None, "answerKey must be one of A-E"
    return {
        "id": str(qid).strip(),
        "question": question.strip(),
        "concept": concept.strip(),
        "choices": tuple(choices[label] for label in LABELS),
        "answer": answer.strip().upper(),
    }, None


def parse_jsonl(data: bytes | str) -> list[EnglishQuestion]:
    """Every line checked first; any error refuses the whole file with the numbered list of errors."""
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8-sig")
        except UnicodeDecodeError as error:
            raise InvalidInput("The file is not UTF-8 text.", field_errors={"file": [str(error)]}) from error
    rows: list[EnglishQuestion] = []
    errors: list[str] = []
    seen: dict[str, int] = {}
    lines = data.splitlines()
    if len(lines) > MAX_LINES:
        raise InvalidInput(f"The file has more than {MAX_LINES} lines.", field_errors={"file": ["Too many lines."]})
    for number, text in enumerate(lines, start=1):
        if not text.strip():
            continue
        if len(text) > MAX_LINE_CHARS:
            errors.append(f"Line {number}: longer than {MAX_LINE_CHARS} characters.")
            continue
        try:
            value = json.loads(text)
        except ValueError as error:
            errors.append(f"Line {number}: not valid JSON ({error.msg}).")
            continue
        parsed, problem = parse_line(value)
        if problem:
            errors.append(f"Line {number}: {problem}.")
            continue
        assert parsed is not None
        if parsed["id"] in seen:
            errors.append(f"Line {number}: id {parsed['id']} repeats line {seen[parsed['id']]}.")
            continue
        seen[parsed["id"]] = number
        rows.append(EnglishQuestion(line=number, **parsed))
    if errors:
        shown = errors[:MAX_REPORTED]
        if len(errors) > MAX_REPORTED:
            shown.append(f"… and {len(errors) - MAX_REPORTED} more.")
        raise InvalidInput(f"Nothing was imported: {len(errors)} line(s) have errors.", field_errors={"file": shown})
    if not rows:
        raise InvalidInput("Nothing was imported: the file has no questions.", field_errors={"file": ["Empty file."]})
    return rows
