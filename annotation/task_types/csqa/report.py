"""The csqa report (agreement, conflicts, per category, per annotator), computed from the core's plain
rows (ReportRows): pure, no database, no qc import.

Every answered item counts, excluded ones included: their answers exist whatever the gold decision,
and the conflict figures of Putri et al. 2024 are over all answers of the release.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from annotation.agreement import (
    agreement_share,
    alpha_nominal_counts,
    cohen_kappa_pairs,
    conflict_counts,
    conflict_tables,
    majority,
    value_counts,
)
from annotation.task_types.base import ReportRows
from annotation.task_types.csqa.payload import LABELS

LABEL_INDEX = {label: i for i, label in enumerate(LABELS)}


# Slots: a 500,000-answer report holds one of these per answer; without a __dict__ each is ~100 bytes
# smaller (~50 MB at that size).
@dataclass(frozen=True, slots=True)
class ItemRow:
    item_id: int
    category: str
    author_id: int | None
    author_answer: str | None
    excluded: bool


@dataclass(frozen=True, slots=True)
class AnswerRow:
    item_id: int
    user_id: int
    answer: str | None
    uncertain: bool
    question_ambiguous: bool
    option_ambiguous: bool


@dataclass(frozen=True)
class ReportInputs:
    project: str
    annotators: Sequence[Any]  # .user_id, .code, .region
    items: list[ItemRow]
    answers: list[AnswerRow]


def answer_of(given: Any) -> Any:
    """The answer the report reads from the value at "answer" (a judgment's or the author's): none for
    a missing or empty one. Both report paths read values through it."""
    return given or None


def flags_of(flags: dict[str, Any] | None) -> tuple[bool, bool, bool]:
    """(uncertain, question ambiguous, an option ambiguous) of a judgment's flags."""
    flags = flags or {}
    return (
        flags.get("uncertain") is True,
        flags.get("question_ambiguous") is True,
        any(v is True for v in flags.get("option_ambiguous") or []),
    )


def report_inputs(rows: ReportRows, *, project: str = "") -> ReportInputs:
    """The report's own rows from the core's: the author's answer, the answers and their flags."""
    items = [
        ItemRow(
            item_id=r.item_id,
            category=r.category,
            author_id=r.author_id,
            author_answer=answer_of(r.payload.get("answer")),
            excluded=r.status == "excluded",
        )
        for r in rows.items
    ]
    answers = [
        AnswerRow(j.item_id, j.user_id, answer_of((j.value or {}).get("answer")), *flags_of(j.flags))
        for j in rows.judgments
    ]
    return ReportInputs(project=project, annotators=list(rows.annotators), items=items, answers=answers)


def _alpha(per_item: list[list[str | None]]) -> float | None:
    units, values = [], []
    for u, answers in enumerate(per_item):
        for a in answers:
            if a in LABEL_INDEX:
                units.append(u)
                values.append(LABEL_INDEX[a])
    counts = value_counts(
        np.asarray(units, dtype=np.int64),
        np.asarray(values, dtype=np.int64),
        n_units=len(per_item),
        n_values=len(LABELS),
    )
    return alpha_nominal_counts(counts)


def build_csqa_report(inputs: ReportInputs, *, min_shared_for_kappa: int = 2) -> dict[str, Any]:
    annotators = inputs.annotators
    rank = {a.user_id: i for i, a in enumerate(annotators)}
    code = {a.user_id: a.code for a in annotators}

    def code_of(user_id: int | None) -> str:
        return code.get(user_id, f"user{user_id}")

    by_item: dict[int, list[AnswerRow]] = defaultdict(list)
    for row in inputs.answers:
        by_item[row.item_id].append(row)
    for rows in by_item.values():
        rows.sort(key=lambda r: (rank.get(r.user_id, len(rank)), r.user_id))

    per_item_answers, per_item_with_author = [], []
    stats: dict[str, dict[str, Any]] = defaultdict(
        lambda: {
            "items": 0,
            "excluded": 0,
            "judgments": 0,
            "majority_equals_author": 0,
            "answers": [],
            "with_author": [],
            "shares": [],
        }
    )
    people: dict[int, Counter] = defaultdict(Counter)
    equals_author = 0
    for item in inputs.items:
        rows = by_item.get(item.item_id, [])
        answers = [r.answer for r in rows]
        winner = majority(answers)
        cat = stats[item.category]
        cat["items"] += 1
        cat["excluded"] += int(item.excluded)
        cat["judgments"] += len(rows)
        cat["answers"].append(answers)
        cat["with_author"].append([*answers, item.author_answer])
        share = agreement_share(answers, winner)
        if share is not None:
            cat["shares"].append(share)
        if winner is not None and winner == item.author_answer:
            equals_author += 1
            cat["majority_equals_author"] += 1
        per_item_answers.append(answers)
        per_item_with_author.append([*answers, item.author_answer])
        if item.author_id is not None:
            people[item.author_id]["authored"] += 1
        for r in rows:
            given = people[r.user_id]
            given["answers"] += 1
            given["uncertain"] += int(r.uncertain)
            given["question_flags_given"] += int(r.question_ambiguous)
            given["option_flags_given"] += int(r.option_ambiguous)
            if item.author_id is not None:
                people[item.author_id]["question_flags_received"] += int(r.question_ambiguous)
                people[item.author_id]["option_flags_received"] += int(r.option_ambiguous)
            if item.author_answer and r.answer is not None:
                given["scored"] += 1
                given["correct"] += int(r.answer == item.author_answer)

    counts = conflict_counts(
        (r.user_id, item.author_id, r.answer, item.author_answer)
        for item in inputs.items
        for r in by_item.get(item.item_id, [])
    )
    kappas = cohen_kappa_pairs(
        ([(code_of(r.user_id), r.answer) for r in by_item.get(item.item_id, [])] for item in inputs.items),
        coders=[a.code for a in annotators],
        min_shared=min_shared_for_kappa,
    )
    n_items = len(inputs.items)
    listed = [a.user_id for a in annotators] + sorted(set(people) - set(rank))
    region = {a.user_id: a.region for a in annotators}
    return {
        "project": inputs.project,
        "items": n_items,
        "judgments": sum(len(by_item.get(i.item_id, [])) for i in inputs.items),
        "excluded": sum(1 for i in inputs.items if i.excluded),
        "majority_equals_author": equals_author,
        "majority_equals_author_share": equals_author / n_items if n_items else None,
        "alpha_nominal": _alpha(per_item_answers),
        "alpha_nominal_with_author": _alpha(per_item_with_author),
        "categories": [
            {
                "category": name,
                "items": s["items"],
                "excluded": s["excluded"],
                "judgments": s["judgments"],
                "majority_equals_author": s["majority_equals_author"],
                "alpha_nominal": _alpha(s["answers"]),
                "alpha_nominal_with_author": _alpha(s["with_author"]),
                "mean_agreement": sum(s["shares"]) / len(s["shares"]) if s["shares"] else None,
            }
            for name, s in sorted(stats.items())
        ],
        "annotators": [
            {
                "code": code_of(uid),
                "region": region.get(uid, ""),
                "authored": people[uid]["authored"],
                "answers": people[uid]["answers"],
                "uncertain": people[uid]["uncertain"],
                "question_flags_given": people[uid]["question_flags_given"],
                "option_flags_given": people[uid]["option_flags_given"],
                "question_flags_received": people[uid]["question_flags_received"],
                "option_flags_received": people[uid]["option_flags_received"],
                "accuracy_against_authors": (
                    people[uid]["correct"] / people[uid]["scored"] if people[uid]["scored"] else None
                ),
            }
            for uid in listed
        ],
        "kappa": [{"a": k.a, "b": k.b, "items": k.items, "kappa": k.kappa} for k in kappas],
        **conflict_tables(counts, annotators),
    }


def report_sections(rows: ReportRows) -> dict[str, Any]:
    """The hook: the report without the project's slug (the core adds it)."""
    report = build_csqa_report(report_inputs(rows))
    del report["project"]
    return report
