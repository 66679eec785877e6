"""Reads for cross-answering: the answerer's view of an item, their progress, the admin's overview.

An answerer must never see the author's answer or anyone else's: the question is read as two JSON
keys of the payload (question, choices), so the answer never leaves the database for these pages.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.db.models import Count, Q
from django.db.models.fields.json import KeyTextTransform, KeyTransform
from django.http import Http404

from annotation.annotators import project_annotators
from annotation.models import Assignment, Item, Judgment, Project
from annotation.services.judgments import ANSWERABLE
from annotation.task_types import project_settings

ANSWER = Assignment.Kind.ANSWER


@dataclass(frozen=True)
class AnswerQuestion:
    """What an answerer is shown: no author, no answer, no other judgment."""

    item_id: int
    category: str
    question: str
    choices: list[str]
    is_own: bool


@dataclass(frozen=True)
class OwnAnswer:
    answer: str | None
    uncertain: bool
    question_ambiguous: bool
    option_ambiguous: list[bool]
    comment: str


def answer_assignment_for_user(*, project: Project, user: AbstractBaseUser, assignment_id: int) -> Assignment:
    """The user's own answer assignment in this project, or 404 (someone else's is not confirmed)."""
    assignment = (
        Assignment.objects.filter(project=project, user=user, kind=ANSWER, pk=assignment_id)
        .only("pk", "project_id", "user_id", "kind", "target_item_id", "status", "lease_expires_at", "position")
        .first()
    )
    if assignment is None:
        raise Http404("No such assignment.")
    return assignment


def answer_question(*, assignment: Assignment, user: AbstractBaseUser) -> AnswerQuestion:
    row = (
        Item.objects.filter(pk=assignment.target_item_id)
        .values_list(
            "pk",
            "author_id",
            "concept__category__name",
            KeyTextTransform("question", "current_version__payload"),
            KeyTransform("choices", "current_version__payload"),
        )
        .first()
    )
    if row is None:
        raise Http404("No such item.")
    item_id, author_id, category, question, choices = row
    return AnswerQuestion(
        item_id=item_id,
        category=category or "",
        question=question or "",
        choices=[str(c) for c in choices] if isinstance(choices, list) else [],
        is_own=author_id is not None and author_id == user.pk,
    )


def own_answer(*, item_id: int, user: AbstractBaseUser) -> OwnAnswer | None:
    """The user's own earlier answer to the item (to edit it), never anyone else's."""
    row = (
        Judgment.objects.filter(item_id=item_id, user=user, kind=ANSWER)
        .values_list("value", "flags", "comment")
        .first()
    )
    if row is None:
        return None
    value, flags, comment = row
    flags = flags or {}
    options = flags.get("option_ambiguous") or []
    return OwnAnswer(
        answer=(value or {}).get("answer"),
        uncertain=flags.get("uncertain") is True,
        question_ambiguous=flags.get("question_ambiguous") is True,
        option_ambiguous=[v is True for v in options] if len(options) == 5 else [False] * 5,
        comment=comment or "",
    )


def answer_progress(*, project: Project, user: AbstractBaseUser) -> tuple[int, int]:
    """(done, total) of the user's answer assignments; cancelled ones (moved to others) don't count."""
    totals = (
        Assignment.objects.filter(project=project, user=user, kind=ANSWER)
        .exclude(status=Assignment.Status.CANCELLED)
        .aggregate(total=Count("id"), done=Count("id", filter=Q(status=Assignment.Status.DONE)))
    )
    return totals["done"], totals["total"]


def crossanswer_overview(*, project: Project) -> dict[str, Any]:
    """How far cross-answering is: items by number of answers and of planned answerers, work per
    annotator, items by decision status. Five grouped queries whatever the project's size."""
    m = project_settings(project)["answerers_per_item"]
    items = Item.objects.filter(project=project, status__in=ANSWERABLE)
    by_status = dict(items.values_list("status").annotate(n=Count("id")).order_by())
    n_items = sum(by_status.values())
    answers = Counter(
        Judgment.objects.filter(project=project, kind=ANSWER, item__status__in=ANSWERABLE)
        .values_list("item_id")
        .annotate(n=Count("id"))
        .order_by()
        .values_list("n", flat=True)
    )
    # Planned answerers of an item: open or done answer assignments (cancelled ones were moved).
    planned = Counter(
        Assignment.objects.filter(project=project, kind=ANSWER, target_item__status__in=ANSWERABLE)
        .exclude(status=Assignment.Status.CANCELLED)
        .values_list("target_item_id")
        .annotate(n=Count("id"))
        .order_by()
        .values_list("n", flat=True)
    )
    loads: dict[int, dict[str, int]] = {}
    for user_id, status, n in (
        Assignment.objects.filter(project=project, kind=ANSWER)
        .values_list("user_id", "status")
        .annotate(n=Count("id"))
        .order_by()
    ):
        loads.setdefault(user_id, Counter())[status] = n
    annotators = project_annotators(project_ids=[project.pk]).get(project.pk, [])
    return {
        "m": m,
        "items": n_items,
        "complete": sum(n for k, n in answers.items() if k >= m),
        "fully_planned": sum(n for k, n in planned.items() if k >= m),
        "histogram": _histogram(answers, planned, n_items, m),
        "status_counts": [
            (value, label, by_status.get(value, 0)) for value, label in Item.Status.choices if value in ANSWERABLE
        ],
        "annotators": [
            {
                "code": a.code,
                "member_active": a.active,
                **{s: loads.get(a.user_id, {}).get(s, 0) for s in Assignment.Status.values},
            }
            for a in annotators
        ],
    }


def _histogram(answers: Counter, planned: Counter, n_items: int, m: int) -> list[tuple[int, int, int]]:
    """[(k, items with exactly k answers, items with exactly k planned answerers)] for k = 0..max(m, the
    largest k seen); items without any row count under 0."""
    answers, planned = Counter(answers), Counter(planned)
    answers[0] += n_items - sum(answers.values())
    planned[0] += n_items - sum(planned.values())
    top = max([m, *answers, *planned])
    return [(k, answers.get(k, 0), planned.get(k, 0)) for k in range(top + 1)]
