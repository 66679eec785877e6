"""csqa's export: one item in the id-csqa schema (Putri et al. 2024) as a dict (CSV, Parquet) or as a JSON
line, its split, the Parquet schema and the data card's text. Pure: the core's export engine (qc.exports)
streams ExportRecords in and writes the files.

Rows: id, category, question_concept, question, choices{label,text}, answer_creator, answer_majority,
answers{code: letter}, answers_uncertainty{code: certain|uncertain}, question_ambiguity{code:
clear|ambiguous}, option_ambiguity{code: [5 x clear|ambiguous]}, reason{code: text}. Codes are the
members' public codes (W1...), in that order. A value an import could not read is written back as it
was (see the csqa importer), so exporting and importing JSON Lines gives back the same items.

The JSON line is assembled from cached fragments instead of json.dumps(dict): exports of 100,000 items
spend most of their time encoding otherwise. It is byte-for-byte json.dumps(csqa_row(record),
ensure_ascii=False) (tested), so both paths always say the same thing.
"""

from __future__ import annotations

import json
from array import array
from dataclasses import dataclass, field
from functools import lru_cache
from json.encoder import encode_basestring
from typing import Any

import numpy as np

from annotation.agreement import alpha_nominal_counts
from annotation.datacard import fmt_figure, summary, table
from annotation.stats import majority
from annotation.task_types.base import ExportRecord, JudgmentRecord
from annotation.task_types.csqa.payload import LABELS

# Splits: human-written items (written here or imported from a human-written release) are test-only.
# So are machine-written ones (generated or adapted by an LLM): the published release ships each of its
# sets as a test set, and one file per export keeps Hugging Face's schema inference from meeting two
# files whose per-annotator dictionaries have different keys (it then fails to cast one to the other).
SPLIT = "test"
_LETTER = {label: i for i, label in enumerate(LABELS)}
FIELDS = (
    "id",
    "category",
    "question_concept",
    "question",
    "choices",
    "answer_creator",
    "answer_majority",
    "answers",
    "answers_uncertainty",
    "question_ambiguity",
    "option_ambiguity",
    "reason",
)
MISSING = object()


def _word(flag: Any, yes: str, no: str) -> str | None:
    return yes if flag is True else no if flag is False else None


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def _text(value: Any) -> str:
    # encode_basestring is what json.dumps(ensure_ascii=False) uses for a str, without the set-up.
    return encode_basestring(value) if type(value) is str else _dumps(value)


@dataclass(frozen=True, slots=True)
class RenderedFlags:
    """A judgment's flags in the release's words (MISSING when absent), with their JSON text."""

    uncertainty: Any
    question: Any
    options: Any
    uncertainty_json: str
    question_json: str
    options_json: str


def render_flags(flags: dict[str, Any]) -> RenderedFlags:
    """answers_uncertainty, question_ambiguity and option_ambiguity values of one judgment. A value an
    import could not read (kept under flags["raw"]) comes back as it was."""
    raw = flags.get("raw") or {}
    values = []
    for name, key, yes, no in (
        ("uncertain", "answers_uncertainty", "uncertain", "certain"),
        ("question_ambiguous", "question_ambiguity", "ambiguous", "clear"),
    ):
        flag = flags.get(name)
        values.append(_word(flag, yes, no) if flag is not None else raw.get(key, MISSING))
    if "option_ambiguity" in raw:
        values.append(raw["option_ambiguity"])
    elif flags.get("option_ambiguous") is not None:
        values.append([_word(f, "ambiguous", "clear") for f in flags["option_ambiguous"]])
    else:
        values.append(MISSING)
    u, q, o = values
    u_json, q_json, o_json = ("" if v is MISSING else _dumps(v) for v in values)
    return RenderedFlags(u, q, o, u_json, q_json, o_json)


def _code(judgment: JudgmentRecord) -> str:
    return judgment.user_code or f"user{judgment.user_id}"


def _answer(judgment: JudgmentRecord) -> str | None:
    return judgment.value.get("answer")


_LAST_MAJORITY: list[Any] = [None, ""]


def _remember_majority(record: ExportRecord, value: str) -> str:
    # The row and the data card's figures both need the record's majority: compute it once per record.
    _LAST_MAJORITY[0], _LAST_MAJORITY[1] = record, value
    return value


def answer_majority(record: ExportRecord) -> str:
    if _LAST_MAJORITY[0] is record:
        return _LAST_MAJORITY[1]
    return _remember_majority(record, majority([j.value.get("answer") for j in record.judgments]) or "")


def csqa_row(record: ExportRecord) -> dict[str, Any]:
    answers, uncertainty, question, options, reason = {}, {}, {}, {}, {}
    for judgment in record.judgments:
        code = _code(judgment)
        flags = _rendered(judgment.flags)
        answers[code] = _answer(judgment)
        reason[code] = judgment.comment
        if flags.uncertainty is not MISSING:
            uncertainty[code] = flags.uncertainty
        if flags.question is not MISSING:
            question[code] = flags.question
        if flags.options is not MISSING:
            options[code] = list(flags.options)  # a copy: rendered flags are shared between rows
    item = record.item
    payload = item.payload
    return {
        "id": item.external_id,
        "category": item.category,
        "question_concept": item.unit_name,
        "question": payload.get("question", ""),
        "choices": {"label": list(LABELS), "text": list(payload.get("choices", []))},
        "answer_creator": payload.get("answer", ""),
        "answer_majority": answer_majority(record),
        "answers": answers,
        "answers_uncertainty": uncertainty,
        "question_ambiguity": question,
        "option_ambiguity": options,
        "reason": reason,
    }


@lru_cache(maxsize=100_000)
def _key(code: str) -> str:
    return encode_basestring(code) + ": "


def _answer_json(answer: str | None) -> str:
    return "null" if answer is None else _text(answer)


def csqa_jsonl(record: ExportRecord) -> str:
    """The row as one JSON line (no newline): equal to json.dumps(csqa_row(record), ensure_ascii=False)."""
    answers, uncertainty, question, options, reason = [], [], [], [], []
    given = []
    rendered = _RENDERED
    for judgment in record.judgments:
        key = _key(judgment.user_code or f"user{judgment.user_id}")
        hit = rendered.get(id(judgment.flags))
        flags = hit[1] if hit is not None and hit[0] is judgment.flags else _rendered(judgment.flags)
        answer = judgment.value.get("answer")
        given.append(answer)
        answers.append(key + _answer_json(answer))
        reason.append(key + _text(judgment.comment))
        if flags.uncertainty_json:
            uncertainty.append(key + flags.uncertainty_json)
        if flags.question_json:
            question.append(key + flags.question_json)
        if flags.options_json:
            options.append(key + flags.options_json)
    item = record.item
    payload = item.payload
    return "".join(
        (
            '{"id": ',
            _text(item.external_id),
            ', "category": ',
            _text(item.category),
            ', "question_concept": ',
            _text(item.unit_name),
            ', "question": ',
            _text(payload.get("question", "")),
            ', "choices": {"label": ["A", "B", "C", "D", "E"], "text": [',
            ", ".join(_text(choice) for choice in payload.get("choices", [])),
            ']}, "answer_creator": ',
            _text(payload.get("answer", "")),
            ', "answer_majority": ',
            encode_basestring(_remember_majority(record, majority(given) or "")),
            ', "answers": {',
            ", ".join(answers),
            '}, "answers_uncertainty": {',
            ", ".join(uncertainty),
            '}, "question_ambiguity": {',
            ", ".join(question),
            '}, "option_ambiguity": {',
            ", ".join(options),
            '}, "reason": {',
            ", ".join(reason),
            "}}",
        )
    )


_RENDERED: dict[int, tuple[dict[str, Any], RenderedFlags]] = {}


def _rendered(flags: dict[str, Any]) -> RenderedFlags:
    # The engine decodes each distinct flag set once and shares the dict between judgments: render each
    # shared dict once too (keyed by identity, checked, since an id may be reused after a dict is freed).
    hit = _RENDERED.get(id(flags))
    if hit is not None and hit[0] is flags:
        return hit[1]
    rendered = render_flags(flags)
    if len(_RENDERED) > 8192:
        _RENDERED.clear()
    _RENDERED[id(flags)] = (flags, rendered)
    return rendered


def export_split(record: ExportRecord) -> str:
    return SPLIT


def parquet_schema():
    """Per-annotator fields are maps (code -> value): their keys differ from row to row."""
    import pyarrow as pa  # imported on use: ~50 MB that JSON Lines and CSV exports don't need

    str_map = pa.map_(pa.string(), pa.string())
    return pa.schema(
        [
            ("id", pa.string()),
            ("category", pa.string()),
            ("question_concept", pa.string()),
            ("question", pa.string()),
            ("choices", pa.struct([("label", pa.list_(pa.string())), ("text", pa.list_(pa.string()))])),
            ("answer_creator", pa.string()),
            ("answer_majority", pa.string()),
            ("answers", str_map),
            ("answers_uncertainty", str_map),
            ("question_ambiguity", str_map),
            ("option_ambiguity", pa.map_(pa.string(), pa.list_(pa.string()))),
            ("reason", str_map),
        ]
    )


@dataclass
class CsqaExportStats:
    """What the data card says about the exported items, gathered while they are written."""

    matches_author: int = 0
    # Per item: how many answers were A..E, then the author's answer (0-4, or 5 when unknown).
    counts: array = field(default_factory=lambda: array("H"))

    def add(self, record: ExportRecord) -> None:
        per_value = [0] * (len(LABELS) + 1)
        for judgment in record.judgments:
            index = _LETTER.get(judgment.value.get("answer"))
            if index is not None:
                per_value[index] += 1
        author = record.item.payload.get("answer")
        per_value[len(LABELS)] = _LETTER.get(author, len(LABELS))
        self.counts.extend(per_value)
        if author and answer_majority(record) == author:
            self.matches_author += 1

    @property
    def items(self) -> int:
        return len(self.counts) // (len(LABELS) + 1)

    def alpha(self) -> dict[str, float | None]:
        width = len(LABELS) + 1
        table_ = np.frombuffer(self.counts, dtype=np.uint16).reshape(-1, width).astype(np.int64)
        answers = table_[:, : len(LABELS)]
        with_author = answers.copy()
        known = table_[:, len(LABELS)] < len(LABELS)
        with_author[np.nonzero(known)[0], table_[known, len(LABELS)]] += 1
        return {
            "alpha_nominal": alpha_nominal_counts(answers),
            "alpha_nominal_with_author": alpha_nominal_counts(with_author),
        }


def datacard_text(stats: Any) -> str:
    """The card's body after its title (the core adds the YAML header, the title and the licence)."""
    task: CsqaExportStats = stats.task
    alpha = task.alpha()
    languages = stats.languages
    annotators = stats.annotators
    # Items carry no language of their own: a project is one dataset, counted under its first language.
    category_rows = [[name or "(none)", languages[0], str(n)] for name, n in sorted(stats.categories.items())]
    split_rows = [[split, stats.files[split], str(stats.counts[split])] for split in sorted(stats.files)]
    threshold = stats.settings["ambiguity_threshold"]
    return "\n".join(
        [
            f"Commonsense question answering items in {', '.join(languages)}, written and cross-answered by "
            "native speakers, exported from Gotong in the id-csqa schema (Putri et al. 2024, "
            '"Can LLM Generate Culturally Relevant Commonsense QA Data? Case Study in Indonesian and Sundanese").',
            "",
            "## Files and splits",
            "",
            f'Format: {stats.fmt} (load with `datasets.load_dataset("{stats.hf_format}", data_dir=...)`). '
            "Human-written items are test-only (as in the published release, every set is a test set).",
            "",
            table(["split", "file", "items"], split_rows),
            "",
            f"Fields: {', '.join(FIELDS)}.",
            "",
            "## Items per category and language",
            "",
            table(["category", "language", "items"], category_rows),
            "",
            "## Annotators",
            "",
            f"{len(annotators)} annotators ({', '.join(a.code for a in annotators)}).",
            f"- Regions: {summary([a.region for a in annotators])}",
            f"- Native languages: {summary([a.native_languages for a in annotators])}",
            f"- Education: {summary([a.education for a in annotators])}",
            "",
            "## Agreement",
            "",
            f"- Krippendorff's alpha (nominal) over the answers, author not counted: "
            f"{fmt_figure(alpha['alpha_nominal'])}",
            f"- The same with the author's answer as one more coder: {fmt_figure(alpha['alpha_nominal_with_author'])}",
            f"- Majority answer equals the author's answer: {task.matches_author} of {task.items} items",
            "",
            "The majority answer is the most common answer of the answerers (the author not counted); a tie goes "
            "to the answer given first in annotator order (W1, W2, ...).",
            "",
            "## Exclusion rule",
            "",
            f"An item whose question is flagged ambiguous by more than {threshold} answerers is "
            f"excluded (reason kept in the project). Excluded items: {stats.excluded}; they are not in this export.",
            "",
        ]
    )
