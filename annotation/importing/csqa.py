"""Parse id-csqa HUMAN_GEN files (Putri et al. 2024) into plain rows, reporting every oddity by row.

Accepts the published JSON array and JSON Lines (one object per line, what `export_gold` writes).
Fields: id, category, question_concept, question, choices{label,text}, answer_creator,
answer_majority, answers{Wk: letter}, answers_uncertainty{Wk: certain|uncertain},
question_ambiguity{Wk: clear|ambiguous}, option_ambiguity{Wk: [5 x clear|ambiguous]}, reason{Wk: text}.

Principles: a value is never silently given another meaning. Case and surrounding spaces are
normalised ("Uncertain" is "uncertain") and counted; a value outside a vocabulary becomes None
(unknown) and its original is kept in `raw`, so it can be exported back; a row that cannot be an
item (no id, no question, unusable choices) is skipped and reported. Only an unreadable file is
fatal. Row numbers are 1-based positions in the array, or line numbers for JSON Lines.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from annotation.annotators import code_sort_key

LABELS = ("A", "B", "C", "D", "E")
UNCERTAINTY = {"certain": False, "uncertain": True}
AMBIGUITY = {"clear": False, "ambiguous": True}
PER_ANNOTATOR = ("answers", "answers_uncertainty", "question_ambiguity", "option_ambiguity", "reason")
KNOWN_FIELDS = frozenset(
    {"id", "category", "question_concept", "question", "choices", "answer_creator", "answer_majority", *PER_ANNOTATOR}
)
_NUMBERED = re.compile(r"(\D*)(\d+)")
CODE_MAX_LENGTH = 40  # Membership.code
DEFAULT_MAX_ANNOTATORS = 200  # Project.max_annotators


class CsqaFileError(ValueError):
    """The file as a whole can't be read; nothing is imported."""


@dataclass(frozen=True)
class Issue:
    row: int
    external_id: str
    code: str
    message: str


@dataclass
class ParsedAnswer:
    code: str
    answer: str | None
    uncertain: bool | None
    question_ambiguous: bool | None
    option_ambiguous: list[bool | None] | None
    reason: str
    # Original values that had no place in the vocabulary (exported back as they were).
    raw: dict[str, Any] = field(default_factory=dict)

    def flags(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "uncertain": self.uncertain,
            "question_ambiguous": self.question_ambiguous,
            "option_ambiguous": self.option_ambiguous,
        }
        if self.raw:
            out["raw"] = self.raw
        return out


@dataclass
class ParsedRow:
    row: int
    external_id: str
    category: str
    concept: str
    question: str
    choices: list[str]
    answer_creator: str  # "" when the file's value is not one of A-E (reported)
    answer_majority: str | None
    author_code: str | None
    answers: list[ParsedAnswer]


@dataclass
class ParsedFile:
    rows: list[ParsedRow]
    issues: list[Issue]
    annotators: list[str]
    total_rows: int


def load_records(data: bytes | str) -> list[tuple[int, Any]]:
    """(row number, decoded JSON value) for a JSON array or JSON Lines text; CsqaFileError if unreadable.

    Text a database can't store (NUL, a lone surrogate such as "\\ud800") and JSON nested deeper than
    any id-csqa row are unreadable too: the file is refused with the row and the field.
    """
    from annotation import limits

    # An id-csqa row nests three levels (option_ambiguity -> annotator -> list); more is not a row.
    max_depth = 16

    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise CsqaFileError(f"The file is not UTF-8 (byte {exc.start}); nothing was imported.") from None
    text = data.lstrip("\ufeff")
    if not text.strip():
        raise CsqaFileError("The file is empty; nothing was imported.")
    if text.lstrip().startswith("["):
        try:
            records = json.loads(text)
        except json.JSONDecodeError as exc:
            raise CsqaFileError(
                f"The file is not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg}); nothing was imported."
            ) from None
        except ValueError:  # Python refuses integers of more than 4,300 digits
            raise CsqaFileError(
                "The file is not valid JSON (a number has more than 4,300 digits); nothing was imported."
            ) from None
        except RecursionError:
            raise CsqaFileError("The file is not valid JSON (nested too deeply); nothing was imported.") from None
        out = list(enumerate(records, start=1))
    else:
        out = []
        for number, line in enumerate(text.splitlines(), start=1):
            if not line.strip():
                continue
            try:
                out.append((number, json.loads(line)))
            except json.JSONDecodeError as exc:
                raise CsqaFileError(
                    f"Line {number} is not valid JSON ({exc.msg}, column {exc.colno}); nothing was imported."
                ) from None
            except ValueError:
                raise CsqaFileError(
                    f"Line {number} is not valid JSON (a number has more than 4,300 digits); nothing was imported."
                ) from None
            except RecursionError:
                raise CsqaFileError(
                    f"Line {number} is not valid JSON (nested too deeply); nothing was imported."
                ) from None
    # Longer than the columns and limits that hold them: refused here, with the row, until rows can be
    # skipped for it; the database would otherwise refuse the import half-way.
    text_limits = {
        "category": limits.CATEGORY_NAME,
        "question_concept": limits.CONCEPT_NAME,
        "question": limits.QUESTION,
    }
    for number, record in out:
        found = next(limits.unstorable_strings(record, max_depth=max_depth, root="value"), None)
        if found is not None:
            where, problem = found
            raise CsqaFileError(f"Row {number}, {where}: {problem} Nothing was imported.")
        if not isinstance(record, dict):
            continue
        texts = [(name, record.get(name), limit) for name, limit in text_limits.items()]
        choices = record.get("choices")
        if isinstance(choices, dict) and isinstance(choices.get("text"), list):
            texts += [(f"choices.text[{i}]", text, limits.OPTION) for i, text in enumerate(choices["text"])]
        if isinstance(record.get("reason"), dict):
            texts += [(f"reason.{limits.shown(code)}", text, limits.COMMENT) for code, text in record["reason"].items()]
        errors = limits.text_errors(
            (where, text.strip(), limit) for where, text, limit in texts if isinstance(text, str)
        )
        if errors:
            where, problems = next(iter(errors.items()))
            raise CsqaFileError(f"Row {number}, {where}: {problems[0]} Nothing was imported.")
    return out


def _text(value: Any) -> str | None:
    if value is None:
        return None
    if isinstance(value, str):
        return value
    if isinstance(value, int | float) and not isinstance(value, bool):
        return str(value)
    return None


class _Row:
    """Collects the issues of one row while it is parsed."""

    def __init__(self, number: int, external_id: str, issues: list[Issue]):
        self.number, self.external_id, self._issues = number, external_id, issues

    def issue(self, code: str, message: str) -> None:
        self._issues.append(Issue(self.number, self.external_id, code, message))


def _vocab(value: Any, vocab: dict[str, bool], row: _Row, what: str, code: str) -> tuple[bool | None, Any]:
    """(meaning, raw) for one vocabulary value: raw is set only when the value had no meaning."""
    if isinstance(value, str) and value.strip().casefold() in vocab:
        if value != value.strip().casefold():
            row.issue("normalised_value", f"{what}: {value!r} read as {value.strip().casefold()!r}.")
        return vocab[value.strip().casefold()], None
    row.issue(code, f"{what}: {value!r} is not one of {', '.join(vocab)}; kept as unknown.")
    return None, value


def _options(value: Any, row: _Row, who: str) -> tuple[list[bool | None] | None, Any]:
    if value is None or value == [] or value == "" or value == {}:
        row.issue("empty_option_ambiguity", f"{who}: no option ambiguity flags; kept as unknown.")
        return None, value
    if not isinstance(value, list) or len(value) != len(LABELS):
        row.issue("bad_option_ambiguity", f"{who}: option ambiguity {value!r} is not 5 flags; kept as unknown.")
        return None, value
    flags: list[bool | None] = []
    unknown = False
    for i, v in enumerate(value):
        meaning, raw = _vocab(v, AMBIGUITY, row, f"{who} option {LABELS[i]}", "unknown_option_ambiguity")
        unknown = unknown or raw is not None or meaning is None
        flags.append(meaning)
    return flags, (value if unknown else None)


def _choices(value: Any, row: _Row) -> list[str] | None:
    if not isinstance(value, dict):
        row.issue("bad_choices", "choices is not an object with label and text; row skipped.")
        return None
    labels, texts = value.get("label"), value.get("text")
    if not isinstance(labels, list) or not isinstance(texts, list) or len(labels) != len(texts):
        row.issue("bad_choices", "choices.label and choices.text are not two lists of the same length; row skipped.")
        return None
    clean = [str(label).strip().upper() if _text(label) is not None else "" for label in labels]
    if sorted(clean) != list(LABELS):
        row.issue("bad_choices", f"choice labels {labels!r} are not A-E once each; row skipped.")
        return None
    if [str(label) for label in labels] != list(LABELS):
        row.issue("normalised_value", f"choice labels {labels!r} read as A-E.")
    by_label = dict(zip(clean, texts, strict=True))
    out = []
    for label in LABELS:
        text = _text(by_label[label])
        if not text or not text.strip():
            row.issue("bad_choices", f"option {label} is empty; row skipped.")
            return None
        out.append(text)
    return out


def _letter(value: Any, row: _Row, what: str, code: str, consequence: str) -> str | None:
    if isinstance(value, str) and value.strip().upper() in LABELS:
        if value != value.strip().upper():
            row.issue("normalised_value", f"{what}: {value!r} read as {value.strip().upper()!r}.")
        return value.strip().upper()
    row.issue(code, f"{what}: {value!r} is not one of A-E; {consequence}.")
    return None


def _per_annotator(record: dict[str, Any], key: str, row: _Row) -> dict[str, Any]:
    value = record.get(key)
    if value is None:
        row.issue(f"missing_{key}", f"{key} is missing.")
        return {}
    if not isinstance(value, dict):
        row.issue(f"missing_{key}", f"{key} is not an object ({type(value).__name__}); ignored.")
        return {}
    return {str(k).strip(): v for k, v in value.items()}


def _check_code(code: str, where: str) -> None:
    if len(code) > CODE_MAX_LENGTH or not code.isprintable():
        raise CsqaFileError(
            f"{where}: the annotator code {code[:50]!r}{'...' if len(code) > 50 else ''} is not a code "
            f"(at most {CODE_MAX_LENGTH} printable characters, e.g. W1); nothing was imported."
        )


def _too_many(count: int, max_annotators: int, why: str) -> CsqaFileError:
    return CsqaFileError(
        f"{why}: {count} annotators, but this project allows at most {max_annotators} "
        "(a project setting); nothing was imported."
    )


def _file_annotators(records: Iterable[tuple[int, Any]], known: Iterable[str], max_annotators: int) -> list[str]:
    """Every annotator code of the file, plus `known` ones, with gaps in a numbered series filled.

    A row's author never appears in it, so an annotator who wrote but never answered (W1 in a subset
    of the release) is only visible as a gap: W2..W6 means W1..W6. Every code becomes an account, so
    the codes are checked before anything is built: each is short, and there are at most
    `max_annotators` of them once the gaps are counted (W2000 alone means 2,000 annotators).
    """
    codes: set[str] = set()
    for code in known:
        code = str(code).strip()
        if code:
            _check_code(code, "Annotator regions")
            codes.add(code)
    for number, record in records:
        if isinstance(record, dict):
            for key in PER_ANNOTATOR:
                if isinstance(record.get(key), dict):
                    for raw in record[key]:
                        code = str(raw).strip()
                        if code and code not in codes:
                            _check_code(code, f"Row {number}, {key}")
                            codes.add(code)
                            if len(codes) > max_annotators:
                                raise _too_many(len(codes), max_annotators, f"Row {number} names more than that")
    series: dict[str, int] = {}
    for code in codes:
        match = _NUMBERED.fullmatch(code)
        if match:
            series[match[1]] = max(series.get(match[1], 0), int(match[2]))
    filled = set(codes)
    for prefix, top in series.items():
        if top > max_annotators:
            raise _too_many(top, max_annotators, f"The code {prefix}{top} means {prefix}1..{prefix}{top}")
        filled.update(f"{prefix}{n}" for n in range(1, top + 1))
        if len(filled) > max_annotators:
            raise _too_many(len(filled), max_annotators, "With the gaps in numbered codes filled")
    return sorted(filled, key=code_sort_key)


def parse_csqa(
    data: bytes | str, *, known_annotators: Iterable[str] = (), max_annotators: int = DEFAULT_MAX_ANNOTATORS
) -> ParsedFile:
    """Parse a file; `known_annotators` (e.g. the codes given regions) join the codes found in it.

    CsqaFileError (nothing imported) when the file is unreadable or names more than `max_annotators`."""
    records = load_records(data)
    annotators = _file_annotators(records, known_annotators, max_annotators)
    issues: list[Issue] = []
    rows: list[ParsedRow] = []
    seen_ids: dict[str, int] = {}
    for number, record in records:
        if not isinstance(record, dict):
            issues.append(Issue(number, "", "not_an_object", "Not a JSON object; row skipped."))
            continue
        external_id = (_text(record.get("id")) or "").strip()
        row = _Row(number, external_id, issues)
        parsed = _parse_row(record, row, annotators, seen_ids)
        if parsed is not None:
            seen_ids[external_id] = number
            rows.append(parsed)
    return ParsedFile(rows=rows, issues=issues, annotators=annotators, total_rows=len(records))


def _parse_row(record: dict[str, Any], row: _Row, annotators: list[str], seen_ids: dict[str, int]) -> ParsedRow | None:
    if not row.external_id:
        row.issue("missing_id", "No id; row skipped.")
        return None
    if len(row.external_id) > 200:
        row.issue("missing_id", "The id is longer than 200 characters; row skipped.")
        return None
    if row.external_id in seen_ids:
        row.issue("duplicate_id", f"The id was already used in row {seen_ids[row.external_id]}; row skipped.")
        return None
    unknown_fields = sorted(set(record) - KNOWN_FIELDS)
    if unknown_fields:
        row.issue("unknown_fields", f"Fields not in the schema were ignored: {', '.join(unknown_fields)}.")
    question = _text(record.get("question"))
    if not question or not question.strip():
        row.issue("missing_question", "No question; row skipped.")
        return None
    choices = _choices(record.get("choices"), row)
    if choices is None:
        return None
    category = (_text(record.get("category")) or "").strip()
    concept = (_text(record.get("question_concept")) or "").strip()
    if not category or not concept:
        row.issue("missing_concept", "No category or question_concept; imported without a concept.")
        category = concept = ""
    answer_creator = (
        _letter(record.get("answer_creator"), row, "answer_creator", "bad_answer_creator", "kept as unknown") or ""
    )
    majority_raw = record.get("answer_majority")
    answer_majority = majority_raw.strip().upper() if isinstance(majority_raw, str) else None

    per = {key: _per_annotator(record, key, row) for key in PER_ANNOTATOR}
    answer_codes = set(per["answers"])
    flagged_codes = set().union(*(per[key].keys() for key in PER_ANNOTATOR[1:]))
    # The author is the one annotator of the file missing from `answers`. One who has flags or a
    # reason but no answer is an answerer whose answer is missing, not a second author.
    candidates = [c for c in annotators if c not in answer_codes and c not in flagged_codes]
    author = candidates[0] if len(candidates) == 1 else None
    if len(candidates) > 1:
        row.issue("author_unknown", f"{' and '.join(candidates)} are all missing: the author is unknown.")
    elif not candidates:
        row.issue("author_unknown", "Every annotator of the file appears in this row: the author is unknown.")

    answers = []
    for code in sorted(answer_codes | flagged_codes, key=code_sort_key):
        who = code
        if code not in answer_codes:
            row.issue("missing_answer", f"{who} has flags or a reason but no answer; that answer is not imported.")
            continue
        answer = _letter(per["answers"][code], row, f"{who} answer", "bad_answer", "this answer is not imported")
        if answer is None:
            continue
        raw: dict[str, Any] = {}
        uncertain = question_ambiguous = None
        if code in per["answers_uncertainty"]:
            uncertain, raw_u = _vocab(
                per["answers_uncertainty"][code], UNCERTAINTY, row, f"{who} uncertainty", "unknown_uncertainty"
            )
            if raw_u is not None or uncertain is None:
                raw["answers_uncertainty"] = raw_u
        else:
            row.issue("missing_uncertainty", f"{who} has no uncertainty value; kept as unknown.")
        if code in per["question_ambiguity"]:
            question_ambiguous, raw_q = _vocab(
                per["question_ambiguity"][code],
                AMBIGUITY,
                row,
                f"{who} question ambiguity",
                "unknown_question_ambiguity",
            )
            if raw_q is not None or question_ambiguous is None:
                raw["question_ambiguity"] = raw_q
        else:
            row.issue("missing_question_ambiguity", f"{who} has no question ambiguity value; kept as unknown.")
        if code in per["option_ambiguity"]:
            options, raw_o = _options(per["option_ambiguity"][code], row, who)
            if raw_o is not None or options is None:
                raw["option_ambiguity"] = raw_o if raw_o is not None else per["option_ambiguity"][code]
        else:
            options = None
            row.issue("empty_option_ambiguity", f"{who}: no option ambiguity flags; kept as unknown.")
        reason = per["reason"].get(code, "")
        if not isinstance(reason, str):
            row.issue("reason_not_text", f"{who}'s reason {reason!r} is not text; kept as its JSON text.")
            reason = json.dumps(reason, ensure_ascii=False) if reason is not None else ""
        answers.append(
            ParsedAnswer(
                code=code,
                answer=answer,
                uncertain=uncertain,
                question_ambiguous=question_ambiguous,
                option_ambiguous=options,
                reason=reason,
                raw=raw,
            )
        )
    return ParsedRow(
        row=row.number,
        external_id=row.external_id,
        category=category,
        concept=concept,
        question=question,
        choices=choices,
        answer_creator=answer_creator,
        answer_majority=answer_majority,
        author_code=author,
        answers=answers,
    )
