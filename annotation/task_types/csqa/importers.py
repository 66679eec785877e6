"""The id-csqa HUMAN_GEN format (Putri et al. 2024): a pure parser, streamed, reporting every oddity by row.

Accepts the published JSON array and JSON Lines (one object per line, what `export_gold` writes).
Fields: id, category, question_concept, question, choices{label,text}, answer_creator,
answer_majority, answers{Wk: letter}, answers_uncertainty{Wk: certain|uncertain},
question_ambiguity{Wk: clear|ambiguous}, option_ambiguity{Wk: [5 x clear|ambiguous]}, reason{Wk: text}.

Principles: a value is never silently given another meaning. Case and surrounding spaces are
normalised ("Uncertain" is "uncertain") and counted; a value outside a vocabulary becomes None
(unknown) and its original is kept in `raw`, so it can be exported back; a row that cannot be an
item (no id, no question, unusable choices) is skipped and reported. Only an unreadable file is
fatal. Row numbers are 1-based positions in the array, or line numbers for JSON Lines.

The file is read twice (annotation.importing.jsonstream, one row at a time): the first pass checks
every row can be stored and collects the annotator codes (a row's author is the one code missing from
its answers, so all codes must be known first); the second yields the records.
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from itertools import product
from typing import Any

from django.utils.translation import gettext_lazy

from annotation import limits
from annotation.annotators import code_sort_key
from annotation.errors import InvalidInput
from annotation.importing.jsonstream import json_rows, json_rows_text
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
from annotation.task_types.csqa import payload as csqa_payload
from annotation.task_types.csqa.morphology import fold

LABELS = ("A", "B", "C", "D", "E")
UNCERTAINTY = {"certain": False, "uncertain": True}
AMBIGUITY = {"clear": False, "ambiguous": True}
PER_ANNOTATOR = ("answers", "answers_uncertainty", "question_ambiguity", "option_ambiguity", "reason")
KNOWN_FIELDS = frozenset(
    {
        "id",
        "category",
        "question_concept",
        "question",
        "choices",
        "answer_creator",
        "answer_majority",
        "language",  # optional: the item's language code (else the import's language)
        "known_answer",  # optional: the letter a known-answer check expects (the item is then a check)
        *PER_ANNOTATOR,
    }
)
_NUMBERED = re.compile(r"(\D*)(\d+)")
CODE_MAX_LENGTH = 40  # Membership.code
DEFAULT_MAX_ANNOTATORS = 200  # Project.max_annotators


CsqaFileError = ImportFileError  # the file as a whole can't be read; nothing is imported
Issue = RowIssue
# Issue codes after which the row is not imported at all.
SKIPPING = frozenset({"not_an_object", "missing_id", "duplicate_id", "missing_question", "bad_choices"})


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
    language: str = ""
    known_answer: str = ""


@dataclass
class ParsedFile:
    rows: list[ParsedRow]
    issues: list[Issue]
    annotators: list[str]
    total_rows: int


# An id-csqa row nests three levels (option_ambiguity -> annotator -> list); more is not a row.
MAX_DEPTH = 16
# Longer than the columns and limits that hold them: refused here, with the row, until rows can be
# skipped for it; the database would otherwise refuse the import half-way.
TEXT_LIMITS = {"category": limits.CATEGORY_NAME, "question_concept": limits.CONCEPT_NAME, "question": limits.QUESTION}


def _stream(data: bytes | str | BinaryStream) -> BinaryStream:
    if isinstance(data, str):
        data = data.encode("utf-8")
    return io.BytesIO(data) if isinstance(data, bytes) else data


_SURROGATE = re.compile("[\ud800-\udfff]")


def _depth(value: Any) -> int:
    """How deeply containers nest in a decoded row (only containers are visited: a row has ~20)."""
    if isinstance(value, dict):
        return 1 + max((_depth(v) for v in value.values() if isinstance(v, dict | list)), default=0)
    if isinstance(value, list):
        return 1 + max((_depth(v) for v in value if isinstance(v, dict | list)), default=0)
    return 0


def _plainly_storable(record: Any, text: str | None = None) -> bool:
    """The fast path of the storable check, at C speed: the JSON text of the row has no NUL (escaped as
    \\u0000 by json.dumps) and no lone surrogate, and its containers nest less than MAX_DEPTH. Walking
    every string of 100,000 rows with their paths took ~3 s; this takes a fraction. When in doubt the
    full walk (limits.unstorable_strings) finds the place and the words of the refusal.

    `text`, the row as the file spells it, saves encoding the row again: a decoded file can hold NUL
    or a surrogate only through an escape (UTF-8 has no surrogates, JSON no raw control characters),
    so without "\\u0000", "\\ud" or "\\uD" in it there is none (with one, the walk decides)."""
    if text is not None:
        if "\\u0000" in text or "\\ud" in text or "\\uD" in text:
            return False
        # A row can't nest deeper than it has containers: count them before walking them.
        if text.count("{") + text.count("[") <= MAX_DEPTH:
            return True
    try:
        text = json.dumps(record, ensure_ascii=False)
    except RecursionError:
        return False
    return "\\u0000" not in text and _SURROGATE.search(text) is None and _depth(record) <= MAX_DEPTH


def _within_limits(record: dict[str, Any]) -> bool:
    """True when no text of the row is longer than its limit (the common case, told by lengths alone)."""
    for name, limit in TEXT_LIMITS.items():
        value = record.get(name)
        if isinstance(value, str) and len(value) > limit:
            return False
    choices = record.get("choices")
    texts = choices.get("text") if isinstance(choices, dict) else None
    if isinstance(texts, list) and any(isinstance(t, str) and len(t) > limits.OPTION for t in texts):
        return False
    reasons = record.get("reason")
    return not isinstance(reasons, dict) or not any(
        isinstance(t, str) and len(t) > limits.COMMENT for t in reasons.values()
    )


def check_storable(number: int, record: Any, text: str | None = None) -> None:
    """Refuse the file (CsqaFileError) when row `number` holds text a database can't store.

    Text a database can't store (NUL, a lone surrogate such as "\\ud800") and JSON nested deeper than
    any id-csqa row are unreadable too: the file is refused with the row and the field. `text` is the
    row's JSON text when the caller has it (a faster check).
    """
    found = (
        None
        if _plainly_storable(record, text)
        else next(limits.unstorable_strings(record, max_depth=MAX_DEPTH, root="value"), None)
    )
    if found is not None:
        where, problem = found
        raise CsqaFileError(f"Row {number}, {where}: {problem} Nothing was imported.")
    if not isinstance(record, dict) or _within_limits(record):
        return
    texts = [(name, record.get(name), limit) for name, limit in TEXT_LIMITS.items()]
    choices = record.get("choices")
    if isinstance(choices, dict) and isinstance(choices.get("text"), list):
        texts += [(f"choices.text[{i}]", text, limits.OPTION) for i, text in enumerate(choices["text"])]
    if isinstance(record.get("reason"), dict):
        texts += [(f"reason.{limits.shown(code)}", text, limits.COMMENT) for code, text in record["reason"].items()]
    errors = limits.text_errors((where, text.strip(), limit) for where, text, limit in texts if isinstance(text, str))
    if errors:
        where, problems = next(iter(errors.items()))
        raise CsqaFileError(f"Row {number}, {where}: {problems[0]} Nothing was imported.")


def load_records(data: bytes | str | BinaryStream) -> list[tuple[int, Any]]:
    """(row number, decoded JSON value) of a whole file, every row checked; CsqaFileError if unreadable."""
    out = list(json_rows(_stream(data)))
    for number, record in out:
        check_storable(number, record)
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


def scan_annotators(
    records: Iterable[tuple[int, Any] | tuple[int, Any, str]],
    known: Iterable[str],
    max_annotators: int,
    *,
    check_rows: bool = True,
) -> tuple[list[str], int]:
    """(every annotator code of the file plus `known` ones, with gaps in a numbered series filled; rows).

    A row's author never appears in it, so an annotator who wrote but never answered (W1 in a subset
    of the release) is only visible as a gap: W2..W6 means W1..W6. Every code becomes an account, so
    the codes are checked before anything is built: each is short, and there are at most
    `max_annotators` of them once the gaps are counted (W2000 alone means 2,000 annotators).
    `check_rows`: each row is checked storable here (False: the caller checks each before using it).
    """
    codes: set[str] = set()
    for code in known:
        code = str(code).strip()
        if code:
            _check_code(code, "Annotator regions")
            codes.add(code)
    rows = 0
    for number, record, *text in records:  # (number, value) or (number, value, JSON text)
        rows += 1
        if check_rows:
            check_storable(number, record, *text)
        if isinstance(record, dict):
            for key in PER_ANNOTATOR:
                value = record.get(key)
                if isinstance(value, dict) and not value.keys() <= codes:  # a known key is a clean code
                    for raw in value:
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
    return sorted(filled, key=code_sort_key), rows


def parse_csqa(
    data: bytes | str | BinaryStream,
    *,
    known_annotators: Iterable[str] = (),
    max_annotators: int = DEFAULT_MAX_ANNOTATORS,
) -> ParsedFile:
    """Parse a whole file into rows (tests and previews; the import streams with IdCsqaImporter).

    CsqaFileError (nothing imported) when the file is unreadable or names more than `max_annotators`."""
    stream = _stream(data)
    annotators, total = scan_annotators(json_rows(stream), known_annotators, max_annotators)
    stream.seek(0)
    rows: list[ParsedRow] = []
    issues: list[Issue] = []
    for parsed, row_issues in _parsed_rows(json_rows(stream), annotators):
        issues.extend(row_issues)
        if parsed is not None:
            rows.append(parsed)
    return ParsedFile(rows=rows, issues=issues, annotators=annotators, total_rows=total)


def _parsed_rows(
    records: Iterable[tuple[int, Any]], annotators: list[str], seen_ids: dict[str, int] | None = None
) -> Iterator[tuple[ParsedRow | None, list[Issue]]]:
    seen_ids = {} if seen_ids is None else seen_ids
    for number, record in records:
        if not isinstance(record, dict):
            yield None, [Issue(number, "", "not_an_object", "Not a JSON object; row skipped.")]
            continue
        external_id = (_text(record.get("id")) or "").strip()
        issues: list[Issue] = []
        row = _Row(number, external_id, issues)
        parsed = _parse_row(record, row, annotators, seen_ids)
        if parsed is not None:
            seen_ids[external_id] = number
        yield parsed, issues


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
        language=(_text(record.get("language")) or "").strip(),
        known_answer=known_answer_text(record.get("known_answer")),
    )


# --- the importer the engine uses ------------------------------------------------------------------


def _record(row: ParsedRow) -> tuple[ImportRecord, list[Issue]]:
    """The row as an import record: the canonical payload, its checks reported by row."""
    issues: list[Issue] = []
    raw = {"question": row.question, "choices": row.choices, "answer": row.answer_creator}
    try:
        payload = csqa_payload.normalize(raw)
    except InvalidInput as exc:  # not reachable for a parsed row (texts were checked); kept as it came
        issues.append(Issue(row.row, row.external_id, "payload_problem", exc.message))
        payload = raw
    if payload["question"] != row.question or payload["choices"] != row.choices:
        issues.append(Issue(row.row, row.external_id, "trimmed_text", "Spaces around the question or options removed."))
    check = csqa_payload.check(payload, concept=None)
    for field_name, messages in check.errors.items():
        if field_name != "answer":  # an unknown creator answer is already reported
            issues.append(Issue(row.row, row.external_id, "payload_problem", f"{field_name}: {' '.join(messages)}"))
    record = ImportRecord(
        row=row.row,
        external_id=row.external_id,
        payload=payload,
        unit=ImportUnit(category=row.category, name=row.concept) if row.category else None,
        author=row.author_code,
        judgments=tuple(
            ImportJudgment(
                annotator=answer.code,
                round=1,
                value={"answer": answer.answer},
                flags=answer.flags(),
                comment=answer.reason,
            )
            for answer in row.answers
        ),
        judging_round=1 if row.answers else 0,
        expected=row.answer_majority,
        language=row.language,
        known_answer=row.known_answer,
    )
    return record, issues


class LeanRows:
    """The common row, read at a fraction of the careful path's cost: every value in its vocabulary,
    spelled exactly (no case or spaces to normalise), every annotator in every per-annotator field,
    one author. Such a row has no issue, and `record` returns exactly the ImportRecord the careful
    path (_parsed_rows, then _record) would; any other row gets None and takes the careful path.

    Rows share what they have in common: one {"answer": "A"} and one flags dict per combination of
    values, so the engine encodes each of them once (annotation.importing.bulkwrite.SharedJson).
    Nothing reads an ImportRecord's dicts to change them.
    """

    def __init__(self, annotators: list[str]) -> None:
        self.annotators = annotators
        self.known = frozenset(annotators)
        # (answers' codes in file order) -> (codes in annotator order, the author), or None: not lean.
        self.orders: dict[tuple[str, ...], tuple[tuple[str, ...], str] | None] = {}
        values = {label: {"answer": label} for label in LABELS}
        flags = {
            (u, q, *options): {
                "uncertain": UNCERTAINTY[u],
                "question_ambiguous": AMBIGUITY[q],
                "option_ambiguous": [AMBIGUITY[o] for o in options],
            }
            for u in UNCERTAINTY
            for q in AMBIGUITY
            for options in product(AMBIGUITY, repeat=len(LABELS))
        }
        # (answer, uncertainty, question ambiguity, 5 option flags) -> (value, flags)
        self.parts = {(label, *key): (values[label], shared) for label in LABELS for key, shared in flags.items()}

    def _order(self, codes: tuple[str, ...]) -> tuple[tuple[str, ...], str] | None:
        if not all(isinstance(c, str) and c and c == c.strip() and c in self.known for c in codes):
            return None
        missing = [c for c in self.annotators if c not in codes]
        if len(missing) != 1 or len(set(codes)) != len(codes):
            return None
        if len(self.orders) > 1000:
            self.orders.clear()
        return tuple(sorted(codes, key=code_sort_key)), missing[0]

    def record(self, number: int, value: Any, seen_ids: dict[str, int]) -> ImportRecord | None:
        """The row's record when it is a common row (its id then counts as seen), else None."""
        if type(value) is not dict or not value.keys() <= KNOWN_FIELDS:
            return None
        get = value.get
        external_id, question, choices = get("id"), get("question"), get("choices")
        category, concept, creator = get("category"), get("question_concept"), get("answer_creator")
        answers, uncertainty, question_flags = get("answers"), get("answers_uncertainty"), get("question_ambiguity")
        option_flags, reasons = get("option_ambiguity"), get("reason")
        language = get("language", "")
        if type(language) is not str:
            return None
        if not (
            type(external_id) is str
            and type(question) is str
            and type(category) is str
            and type(concept) is str
            and type(creator) is str
            and type(choices) is dict
            and type(answers) is dict
            and type(uncertainty) is dict
            and type(question_flags) is dict
            and type(option_flags) is dict
            and type(reasons) is dict
        ):
            return None
        external_id, category, concept = external_id.strip(), category.strip(), concept.strip()
        texts = choices.get("text")
        if (
            not external_id
            or len(external_id) > 200
            or external_id in seen_ids
            or not question
            or question != question.strip()
            or len(question) > limits.QUESTION
            or not category
            or not concept
            or creator not in _LABEL_SET
            or choices.get("label") != _LABEL_LIST
            or type(texts) is not list
            or len(texts) != len(LABELS)
        ):
            return None
        for text in texts:
            if type(text) is not str or not text or text != text.strip() or len(text) > limits.OPTION:
                return None
        # csqa_payload.check's one remaining error: two options that read the same.
        if len({" ".join((t.lower() if t.isascii() else fold(t)).split()) for t in texts}) != len(LABELS):
            return None
        codes = tuple(answers)
        if codes in self.orders:
            order = self.orders[codes]
        else:
            order = self.orders[codes] = self._order(codes)
        if order is None:
            return None
        keys = answers.keys()
        if not (
            uncertainty.keys() == keys
            and question_flags.keys() == keys
            and option_flags.keys() == keys
            and reasons.keys() <= keys
        ):
            return None
        parts = self.parts
        judgments = []
        for code in order[0]:
            options = option_flags[code]
            reason = reasons.get(code, "")
            if type(options) is not list or len(options) != len(LABELS) or type(reason) is not str:
                return None
            try:
                answer, flags = parts[(answers[code], uncertainty[code], question_flags[code], *options)]
            except (KeyError, TypeError):  # a value outside the vocabulary, or not even hashable
                return None
            judgments.append(ImportJudgment(code, 1, answer, flags, reason))
        majority = get("answer_majority")
        seen_ids[external_id] = number
        return ImportRecord(
            row=number,
            external_id=external_id,
            payload={"question": question, "choices": list(texts), "answer": creator},
            unit=ImportUnit(category=category, name=concept),
            author=order[1],
            judgments=tuple(judgments),
            judging_round=1 if judgments else 0,
            expected=majority.strip().upper() if isinstance(majority, str) else None,
            language=language.strip(),
            known_answer=known_answer_text(get("known_answer")),
        )


_LABEL_LIST = list(LABELS)
_LABEL_SET = frozenset(LABELS)


class IdCsqaImporter(Importer):
    name = "id-csqa"
    label = gettext_lazy("id-csqa HUMAN_GEN (JSON array or JSON Lines)")
    help = gettext_lazy(
        "Every row becomes an approved item written by the one annotator (Wk) missing from its answers; "
        "every answer becomes a judgment with its flags and reason."
    )
    judgment_kind = "answer"
    judgments_word = "answers"
    skipping_codes = SKIPPING
    # check_storable, at C speed over each row's text (the generic walk cost ~3 s per 100,000 rows), in
    # the records pass rather than the scan: there it runs while PostgreSQL writes the previous batch (the
    # import is one transaction: a refused row still leaves nothing written).
    storable_rows = True

    def scan(self, stream: BinaryStream, *, known_annotators: Iterable[str], max_annotators: int) -> FileScan:
        annotators, rows = scan_annotators(json_rows(stream), known_annotators, max_annotators, check_rows=False)
        return FileScan(annotators=tuple(annotators), rows=rows)

    def records(self, stream: BinaryStream, *, scan: FileScan) -> Iterator[ImportRecord | RowIssue]:
        annotators = list(scan.annotators)
        lean = LeanRows(annotators)
        seen_ids: dict[str, int] = {}
        for number, value, text in json_rows_text(stream):
            check_storable(number, value, text)
            record = lean.record(number, value, seen_ids)
            if record is not None:
                yield record
                continue
            for parsed, issues in _parsed_rows([(number, value)], annotators, seen_ids):
                if parsed is not None:
                    record, more = _record(parsed)
                    issues += more
                    yield record
                yield from issues

    def gold_issues(self, record: ImportRecord, details: dict[str, Any] | None) -> list[RowIssue]:
        computed = (details or {}).get("majority")
        if record.expected is None or computed == record.expected:
            return []
        message = (
            f"The file says answer_majority {record.expected!r}; the answers give "
            f"{computed!r} (kept: it is recomputed from the answers)."
        )
        return [RowIssue(record.row, record.external_id, "majority_differs", message)]


IMPORTERS: dict[str, Importer] = {IdCsqaImporter.name: IdCsqaImporter()}
