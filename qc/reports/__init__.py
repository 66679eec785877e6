"""csqa reports: selectors that read a project in a fixed number of queries, and a pure function that
turns what they read into the report (agreement, conflicts, per category, per annotator).

Every answered item counts, excluded ones included: their answers exist whatever the gold decision,
and the conflict figures of Putri et al. 2024 are over all answers of the release.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from django.db.models.fields.json import KT, KeyTextTransform

from annotation.annotators import Annotator, project_annotators
from annotation.models import Item, Judgment, Project
from qc.agreement import (
    agreement_share,
    alpha_nominal_counts,
    cohen_kappa_pairs,
    conflict_counts,
    group_counts,
    majority,
    matrix,
    value_counts,
)
from qc.gold import DECIDABLE

LABELS = ("A", "B", "C", "D", "E")
LABEL_INDEX = {label: i for i, label in enumerate(LABELS)}
UNKNOWN_REGION = "(unknown)"


@dataclass(frozen=True)
class ItemRow:
    item_id: int
    category: str
    author_id: int | None
    author_answer: str | None
    excluded: bool


@dataclass(frozen=True)
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
    annotators: list[Annotator]
    items: list[ItemRow]
    answers: list[AnswerRow]


# --- selectors -----------------------------------------------------------------------------------


def _items_qs(project: Project):
    return Item.objects.filter(project=project, status__in=DECIDABLE)


def item_rows(*, project: Project) -> list[ItemRow]:
    rows = (
        _items_qs(project)
        .values_list(
            "pk",
            "concept__category__name",
            "author_id",
            KeyTextTransform("answer", "current_version__payload"),
            "status",
        )
        .order_by("pk")
        .iterator(chunk_size=5000)
    )
    return [
        ItemRow(
            item_id=pk,
            category=category or "",
            author_id=author_id,
            author_answer=answer or None,
            excluded=status == Item.Status.EXCLUDED,
        )
        for pk, category, author_id, answer, status in rows
    ]


def answer_rows(*, project: Project) -> list[AnswerRow]:
    out = []
    for item_id, user_id, answer, flags in (
        Judgment.objects.filter(project=project, kind="answer", item__status__in=DECIDABLE)
        .values_list("item_id", "user_id", KT("value__answer"), "flags")
        .order_by("item_id", "user_id")
        .iterator(chunk_size=5000)
    ):
        flags = flags or {}
        out.append(
            AnswerRow(
                item_id=item_id,
                user_id=user_id,
                answer=answer or None,
                uncertain=flags.get("uncertain") is True,
                question_ambiguous=flags.get("question_ambiguous") is True,
                option_ambiguous=any(v is True for v in flags.get("option_ambiguous") or []),
            )
        )
    return out


def csqa_report_inputs(*, project: Project) -> ReportInputs:
    """Everything the report needs, in three queries whatever the project size."""
    annotators = project_annotators(project_ids=[project.pk]).get(project.pk, [])
    return ReportInputs(
        project=project.slug,
        annotators=annotators,
        items=item_rows(project=project),
        answers=answer_rows(project=project),
    )


def alpha_for_project(*, project: Project) -> dict[str, float | None]:
    """Krippendorff's alpha (nominal) over the answers, without and with the author, in two queries.

    Streams (item, answer) pairs straight into arrays: half a million answers take a few MB, not the
    ~100 MB of Python tuples a plain fetch would hold.
    """
    answers = (
        Judgment.objects.filter(project=project, kind="answer", item__status__in=DECIDABLE)
        .values_list("item_id", KT("value__answer"))
        .order_by()
        .iterator(chunk_size=20_000)
    )
    authors = (
        _items_qs(project)
        .values_list("pk", KeyTextTransform("answer", "current_version__payload"))
        .order_by()
        .iterator(chunk_size=20_000)
    )
    item_ids, letters = _columns(answers)
    author_ids, author_letters = _columns(authors)
    all_ids = np.union1d(item_ids, author_ids)
    units = np.searchsorted(all_ids, item_ids)
    counts = value_counts(units, letters, n_units=len(all_ids), n_values=len(LABELS))
    with_author = counts.copy()
    np.add.at(with_author, (np.searchsorted(all_ids, author_ids), author_letters), 1)
    return {
        "alpha_nominal": alpha_nominal_counts(counts),
        "alpha_nominal_with_author": alpha_nominal_counts(with_author),
    }


def _columns(rows) -> tuple[np.ndarray, np.ndarray]:
    """(ids, answer indexes) of the rows whose answer is one of A-E."""
    pairs = np.fromiter(
        ((pk, LABEL_INDEX[letter]) for pk, letter in rows if letter in LABEL_INDEX),
        dtype=np.dtype((np.int64, 2)),
    )
    return pairs[:, 0].copy(), pairs[:, 1].copy()


def conflicts_for_project(*, project: Project) -> dict[str, Any]:
    """The answerer x creator conflict matrix, in two queries (annotators, answers with their item)."""
    annotators = project_annotators(project_ids=[project.pk]).get(project.pk, [])
    rows = (
        Judgment.objects.filter(project=project, kind="answer", item__status__in=DECIDABLE)
        .values_list(
            "user_id",
            "item__author_id",
            KT("value__answer"),
            KeyTextTransform("answer", "item__current_version__payload"),
        )
        .order_by()
    )
    return _conflicts(conflict_counts(rows), annotators)


# --- the report, pure ----------------------------------------------------------------------------


def _conflicts(counts: Counter, annotators: Sequence[Annotator]) -> dict[str, Any]:
    code = {a.user_id: a.code for a in annotators}
    by_code = Counter({(code[r], code[c]): n for (r, c), n in counts.items() if r in code and c in code})
    codes = [a.code for a in annotators]
    region_of = {a.code: a.region or UNKNOWN_REGION for a in annotators}
    regions = list(dict.fromkeys(region_of[c] for c in codes))
    return {
        "conflicts": {"annotators": codes, "counts": matrix(by_code, codes)},
        "conflicts_by_region": {"regions": regions, "counts": matrix(group_counts(by_code, region_of), regions)},
    }


def _alpha(per_item: list[list[str | None]]) -> float | None:
    units, values = [], []
    for u, answers in enumerate(per_item):
        for a in answers:
            if a in LABEL_INDEX:
                units.append(u)
                values.append(LABEL_INDEX[a])
    counts = value_counts(
        np.asarray(units, dtype=np.int64), np.asarray(values, dtype=np.int64), n_units=len(per_item), n_values=5
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
        **_conflicts(counts, annotators),
    }


def csqa_report(*, project: Project) -> dict[str, Any]:
    return build_csqa_report(csqa_report_inputs(project=project))
