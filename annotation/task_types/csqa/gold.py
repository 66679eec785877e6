"""The csqa gold policy, as pure functions (the core's qc.gold saves what they decide).

Rule (Putri et al. 2024): the majority answer of the answerers (the author never counts; ties go to
the answer seen first in the project's annotator order, see annotation.stats.majority) is reported
beside the author's answer. An item whose question is flagged ambiguous by more than the project's
`ambiguity_threshold` answerers is excluded, with the reason kept. An item with fewer than
`answerers_per_item` answers is still pending. Nothing is deleted: an excluded item keeps its row,
its answers and its decision, and is re-included if a later answer change brings it under the bar.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from annotation.stats import agreement_share, majority
from annotation.task_types.base import GoldCase, GoldOutcome
from annotation.task_types.csqa.payload import LABELS

POLICY = "csqa_majority_v1"


class Answer(NamedTuple):
    judgment_id: int
    answer: str | None
    uncertain: bool | None = False
    question_ambiguous: bool | None = False
    option_ambiguous: Sequence[bool | None] | None = None


class CsqaGold(NamedTuple):
    outcome: str
    reason: str
    majority: str | None
    author_answer: str | None
    matches_author: bool | None
    answers: int
    question_ambiguous: int
    # Answerers who flagged at least one option, and flags per option A-E.
    option_ambiguous: int
    option_flags: list[int]
    uncertain: int
    agreement: float | None
    threshold: int

    def details(self) -> dict[str, Any]:
        # Every field but the outcome and reason (its one list copied). Named tuples rather than frozen
        # dataclasses: an import decides 100,000 items, and building dataclasses took a third of it.
        out = self._asdict()
        del out["outcome"], out["reason"]
        out["option_flags"] = list(self.option_flags)
        return out


def csqa_gold_decide(
    *, answers: Sequence[Answer], author_answer: str | None, required: int, threshold: int
) -> CsqaGold:
    """Decide one item. `answers` must be in the project's annotator order (for the tie-break)."""
    given = [a.answer for a in answers if a.answer is not None]
    winner = majority(given)
    question_flags = sum(1 for a in answers if a.question_ambiguous)
    option_flags = [0] * len(LABELS)
    flaggers = 0
    for a in answers:
        flags = list(a.option_ambiguous or [])
        if any(flags):
            flaggers += 1
        for i, flagged in enumerate(flags[: len(LABELS)]):
            option_flags[i] += 1 if flagged else 0
    author_answer = author_answer or None
    if question_flags > threshold:
        outcome = "excluded"
        reason = (
            f"Question flagged ambiguous by {question_flags} of {len(answers)} answerers "
            f"(more than the threshold of {threshold})."
        )
    elif len(given) >= required:
        outcome, reason = "gold", ""
    else:
        outcome, reason = "pending", f"{len(given)} of {required} answers so far."
    return CsqaGold(
        outcome=outcome,
        reason=reason,
        majority=winner,
        author_answer=author_answer,
        matches_author=None if winner is None or author_answer is None else winner == author_answer,
        answers=len(given),
        question_ambiguous=question_flags,
        option_ambiguous=flaggers,
        option_flags=option_flags,
        uncertain=sum(1 for a in answers if a.uncertain),
        agreement=agreement_share(given, winner),
        threshold=threshold,
    )


def gold_memo_key(case: GoldCase) -> tuple:
    """What gold_decide reads: the author's answer, the two settings and each answer with its flags,
    in annotator order (never who answered)."""
    return (
        case.payload.get("answer"),
        case.settings["answerers_per_item"],
        case.settings["ambiguity_threshold"],
        tuple(
            (
                row.value.get("answer"),
                row.flags.get("uncertain"),
                row.flags.get("question_ambiguous"),
                tuple(row.flags.get("option_ambiguous") or ()),
            )
            for row in case.judgments
        ),
    )


def gold_decide(case: GoldCase) -> GoldOutcome:
    """The plugin hook: csqa has a single round, so it never asks for another."""
    answers = [
        Answer(
            judgment_id=row.judgment_id,
            answer=row.value.get("answer") or None,
            uncertain=row.flags.get("uncertain"),
            question_ambiguous=row.flags.get("question_ambiguous"),
            option_ambiguous=row.flags.get("option_ambiguous"),
        )
        for row in case.judgments
    ]
    gold = csqa_gold_decide(
        answers=answers,
        author_answer=case.payload.get("answer"),
        required=case.settings["answerers_per_item"],
        threshold=case.settings["ambiguity_threshold"],
    )
    return GoldOutcome(outcome=gold.outcome, reason=gold.reason, details=gold.details())
