"""The csqa gold policy: a pure decision per item, and a batched service that saves it.

Rule (Putri et al. 2024): the majority answer of the answerers (the author never counts; ties go to
the answer seen first in the project's annotator order, see qc.agreement.majority) is reported beside
the author's answer. An item whose question is flagged ambiguous by more than the project's
`ambiguity_threshold` answerers is excluded, with the reason kept. An item with fewer than
`answerers_per_item` answers is still pending. Nothing is deleted: an excluded item keeps its row,
its answers and its decision, and is re-included if a later answer change brings it under the bar.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from functools import lru_cache
from typing import Any

from django.db import transaction
from django.db.models import TextField
from django.db.models.fields.json import KT, KeyTextTransform
from django.db.models.functions import Cast
from django.utils import timezone

from annotation.annotators import annotator_ranks, project_annotators, rank_of
from annotation.models import Item, Judgment, Project
from annotation.task_types import project_settings
from qc.agreement import agreement_share, majority
from qc.batching import batched
from qc.models import GoldDecision

POLICY = "csqa_majority_v1"
# Items in these states have been approved by QC and may be answered and decided on.
DECIDABLE = (Item.Status.APPROVED, Item.Status.JUDGED, Item.Status.GOLD, Item.Status.EXCLUDED)


@dataclass(frozen=True)
class Answer:
    judgment_id: int
    answer: str | None
    uncertain: bool | None = False
    question_ambiguous: bool | None = False
    option_ambiguous: Sequence[bool | None] | None = None


@dataclass(frozen=True)
class CsqaGold:
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
        out = asdict(self)
        del out["outcome"], out["reason"]
        return out


def csqa_gold_decide(
    *, answers: Sequence[Answer], author_answer: str | None, required: int, threshold: int
) -> CsqaGold:
    """Decide one item. `answers` must be in the project's annotator order (for the tie-break)."""
    given = [a.answer for a in answers if a.answer is not None]
    winner = majority(given)
    question_flags = sum(1 for a in answers if a.question_ambiguous)
    option_flags = [0] * 5
    flaggers = 0
    for a in answers:
        flags = list(a.option_ambiguous or [])
        if any(flags):
            flaggers += 1
        for i, flagged in enumerate(flags[:5]):
            option_flags[i] += 1 if flagged else 0
    author_answer = author_answer or None
    if question_flags > threshold:
        outcome = GoldDecision.Outcome.EXCLUDED
        reason = (
            f"Question flagged ambiguous by {question_flags} of {len(answers)} answerers "
            f"(more than the threshold of {threshold})."
        )
    elif len(given) >= required:
        outcome, reason = GoldDecision.Outcome.GOLD, ""
    else:
        outcome, reason = GoldDecision.Outcome.PENDING, f"{len(given)} of {required} answers so far."
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


@lru_cache(maxsize=4096)
def _flags(text: str | None) -> dict[str, Any]:
    # Few distinct flag sets across many answers: decode each once (read-only, shared).
    return json.loads(text) if text else {}


def _item_status(current: str, outcome: str) -> str:
    if outcome == GoldDecision.Outcome.EXCLUDED:
        return Item.Status.EXCLUDED
    if outcome == GoldDecision.Outcome.GOLD:
        # "gold" is a later, explicit promotion; a recompute that still says gold must not undo it.
        return Item.Status.GOLD if current == Item.Status.GOLD else Item.Status.JUDGED
    return Item.Status.APPROVED


@transaction.atomic
def gold_recompute(*, item_ids: Iterable[int], batch_size: int = 2000) -> dict[str, int]:
    """Recompute and save the gold decision of the given items; return how many got each outcome.

    Items not yet approved are skipped. Each batch locks its items (ordered by pk, like every other
    multi-row lock) so a concurrent answer to the same item waits instead of racing the decision.
    """
    totals: dict[str, int] = defaultdict(int)
    context: dict[int, tuple[int, int, dict[int, int]]] = {}
    for batch in batched(sorted(set(item_ids)), batch_size):
        items = list(
            Item.objects.select_for_update(of=("self",))
            .filter(pk__in=batch, status__in=DECIDABLE)
            .order_by("pk")
            .values_list(
                "pk", "project_id", "status", "status_reason", KeyTextTransform("answer", "current_version__payload")
            )
        )
        if not items:
            continue
        missing = {project_id for _, project_id, *_ in items} - set(context)
        if missing:
            annotators = project_annotators(project_ids=missing)
            for project in Project.objects.filter(pk__in=missing).only("pk", "task_type", "settings"):
                task_settings = project_settings(project)
                context[project.pk] = (
                    task_settings["answerers_per_item"],
                    task_settings["ambiguity_threshold"],
                    annotator_ranks(annotators.get(project.pk, [])),
                )
        by_item: dict[int, list[tuple]] = defaultdict(list)
        for jid, item_id, user_id, answer, flags in (
            Judgment.objects.filter(item_id__in=[i[0] for i in items], kind="answer")
            .values_list("pk", "item_id", "user_id", KT("value__answer"), Cast("flags", TextField()))
            .order_by()
        ):
            by_item[item_id].append((jid, user_id, answer, _flags(flags)))

        decisions, status_changes = [], defaultdict(list)
        for item_id, project_id, status, status_reason, author_answer in items:
            required, threshold, ranks = context[project_id]
            rows = sorted(by_item.get(item_id, []), key=lambda r: rank_of(ranks, r[1]))
            answers = [
                Answer(
                    judgment_id=jid,
                    answer=answer or None,
                    uncertain=flags.get("uncertain"),
                    question_ambiguous=flags.get("question_ambiguous"),
                    option_ambiguous=flags.get("option_ambiguous"),
                )
                for jid, _, answer, flags in rows
            ]
            gold = csqa_gold_decide(
                answers=answers, author_answer=author_answer, required=required, threshold=threshold
            )
            totals[gold.outcome] += 1
            decisions.append(
                GoldDecision(
                    item_id=item_id,
                    policy=POLICY,
                    outcome=gold.outcome,
                    reason=gold.reason,
                    details=gold.details(),
                    judgment_ids=[a.judgment_id for a in answers],
                )
            )
            new_status = _item_status(status, gold.outcome)
            new_reason = gold.reason if new_status == Item.Status.EXCLUDED else ""
            if (new_status, new_reason) != (status, status_reason):
                status_changes[(new_status, new_reason)].append(item_id)
        GoldDecision.objects.bulk_create(
            decisions,
            update_conflicts=True,
            unique_fields=["item"],
            update_fields=["policy", "outcome", "reason", "details", "judgment_ids", "computed_at"],
        )
        now = timezone.now()
        for (new_status, new_reason), ids in status_changes.items():
            Item.objects.filter(pk__in=ids).update(status=new_status, status_reason=new_reason, updated_at=now)
    return dict(totals)


def gold_recompute_project(*, project: Project, batch_size: int = 2000) -> dict[str, int]:
    ids = Item.objects.filter(project=project, status__in=DECIDABLE).values_list("pk", flat=True).order_by("pk")
    return gold_recompute(item_ids=list(ids), batch_size=batch_size)
