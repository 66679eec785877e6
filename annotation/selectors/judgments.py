"""Reads for judging: the judge's view of an item, their progress, the admin's overview.

A judge must never see the author's answer or anyone else's: the page gets what the task type's
judge_item/judge_view keep of the payload (e.g. a question and its options), nothing else.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import connection
from django.db.models import Count, JSONField, OuterRef, Q, Subquery, Sum
from django.db.models.functions import JSONObject
from django.http import Http404

from annotation.annotators import project_annotators
from annotation.models import Assignment, AssignmentTally, Item, Judgment, Project
from annotation.services.judging import JUDGEABLE
from annotation.services.planned_blocks import PLANNED, planned_slots_per_item
from annotation.services.screening import work_gate
from annotation.task_types import get_task_type, project_settings
from annotation.task_types.base import JudgmentInput, TaskType


def judge_assignment_for_user(*, project: Project, user: AbstractBaseUser, assignment_id: int, kind: str) -> Assignment:
    """The user's own judge assignment in this project, or 404 (someone else's is not confirmed)."""
    assignment = (
        Assignment.objects.filter(project=project, user=user, kind=kind, pk=assignment_id)
        .only(
            "pk", "project_id", "user_id", "kind", "round", "target_item_id", "status", "lease_expires_at", "position"
        )
        .first()
    )
    if assignment is None:
        raise Http404("No such assignment.")
    work_gate(project=project, user_id=user.pk)
    return assignment


# What judge_item_for reads of the item, in the order _judge_item takes them.
_JUDGE_ITEM_FIELDS = (
    "pk",
    "author_id",
    "concept__category__name",
    "current_version__payload",
    "concept__data",
    "project__plan_seed",
)


def judge_item_for(*, assignment: Assignment, user: AbstractBaseUser, task_type_name: str) -> Any:
    """What the judge is shown (the task type's judge_item): never the author, their answer or others'."""
    row = Item.objects.filter(pk=assignment.target_item_id).values_list(*_JUDGE_ITEM_FIELDS).first()
    if row is None:
        raise Http404("No such item.")
    return _judge_item(row, user=user, task_type_name=task_type_name)


def _judge_item(row: tuple, *, user: AbstractBaseUser, task_type_name: str) -> Any:
    item_id, author_id, category, payload, unit_data, seed = row
    return get_task_type(task_type_name).judge_item_for_judge(
        judge_id=user.pk,
        seed=seed or 0,
        item_id=item_id,
        category=category or "",
        payload=payload or {},
        unit_data=unit_data or {},
        is_own=author_id is not None and author_id == user.pk,
    )


def own_judgment(*, item_id: int, user: AbstractBaseUser, kind: str, task_type_name: str) -> Any:
    """The user's own earlier judgment of the item (to edit it), never anyone else's."""
    row = (
        Judgment.objects.filter(item_id=item_id, user=user, kind=kind)
        .values_list("value", "flags", "comment", "item__current_version__payload", "project__plan_seed")
        .first()
    )
    if row is None:
        return _own_judgment(None, user=user, item_id=item_id, seed=0, payload={}, task_type_name=task_type_name)
    return _own_judgment(
        row[:3], user=user, item_id=item_id, seed=row[4] or 0, payload=row[3] or {}, task_type_name=task_type_name
    )


def _own_judgment(
    row: tuple | None, *, user: AbstractBaseUser, item_id: int, seed: int, payload: dict[str, Any], task_type_name: str
) -> Any:
    """The task type's own_judgment_for_judge: what the judge is shown of their judgment (e.g. by the
    positions of their own order), never what is stored as such."""
    previous = None if row is None else JudgmentInput(value=row[0] or {}, flags=row[1] or {}, comment=row[2] or "")
    return get_task_type(task_type_name).own_judgment_for_judge(
        previous, judge_id=user.pk, seed=seed, item_id=item_id, payload=payload
    )


@dataclass(frozen=True)
class JudgeTask:
    item: Any  # judge_item_for
    own: Any  # own_judgment
    done: int  # judging_progress
    total: int


def _object(value: Any) -> Any:
    """A judgment's value or flags (JSON objects) read inside json_object(): PostgreSQL nests them as
    objects, SQLite as their JSON text."""
    return json.loads(value) if isinstance(value, str) else value


def judge_task_for(*, project: Project, assignment: Assignment, user: AbstractBaseUser, kind: str) -> JudgeTask:
    """judge_item_for, own_judgment and judging_progress of one judge assignment, in one query on PostgreSQL
    (the judgment and the tallies as subqueries of the item's row): the judging API's next and its
    GET paid three round trips for them."""
    own = Judgment.objects.filter(item_id=OuterRef("pk"), user_id=user.pk, kind=kind).values(
        own=JSONObject(value="value", flags="flags", comment="comment")
    )[:1]
    reads: dict[str, Any] = {"own": Subquery(own, output_field=JSONField())}
    tallies = connection.vendor == "postgresql"
    if tallies:
        reads.update(_tally_progress(project=project, user_id=user.pk, kind=kind))
    row = (
        Item.objects.filter(pk=assignment.target_item_id)
        .annotate(**reads)
        .values_list(*_JUDGE_ITEM_FIELDS, *reads)
        .first()
    )
    if row is None:
        raise Http404("No such item.")
    task_type_name = project.task_type
    item = _judge_item(row[:6], user=user, task_type_name=task_type_name)
    stored = row[6]
    own_row = None if stored is None else (_object(stored["value"]), _object(stored["flags"]), stored["comment"])
    if tallies:
        done, total = row[7] or 0, row[8] or 0
    else:
        done, total = judging_progress(project=project, user=user, kind=kind)
    own = _own_judgment(
        own_row, user=user, item_id=row[0], seed=row[5] or 0, payload=row[3] or {}, task_type_name=task_type_name
    )
    return JudgeTask(item=item, own=own, done=done, total=total)


def own_judgment_of(*, judgment: Judgment, user: AbstractBaseUser, task_type_name: str) -> Any:
    """A judgment the user just recorded, as they are shown it (the task type's own_judgment), never the
    stored value itself: that may hold what a judge must not see (KALAHI's option names, order and seed
    tell which response was the best). Never anyone else's judgment."""
    if judgment.user_id != user.pk:
        raise Http404("No such judgment.")
    task_type = get_task_type(task_type_name)
    stored = JudgmentInput(value=judgment.value or {}, flags=judgment.flags or {}, comment=judgment.comment or "")
    if type(task_type).own_judgment_for_judge is TaskType.own_judgment_for_judge:
        return task_type.own_judgment(stored)
    # Only a task type that answers per judge pays for this read (the item it was recorded against).
    payload, seed = (
        Item.objects.filter(pk=judgment.item_id).values_list("current_version__payload", "project__plan_seed").get()
    )
    return task_type.own_judgment_for_judge(
        stored, judge_id=user.pk, seed=seed or 0, item_id=judgment.item_id, payload=payload or {}
    )


def judging_progress(*, project: Project, user: AbstractBaseUser, kind: str) -> tuple[int, int]:
    """(done, total) of the user's judge assignments; cancelled ones (moved to others) don't count."""
    if connection.vendor == "postgresql":
        # The database keeps the counts (AssignmentTally): one indexed read of at most four rows.
        row = (
            Project.objects.filter(pk=project.pk)
            .annotate(**_tally_progress(project=project, user_id=user.pk, kind=kind))
            .values_list("done", "total")
            .first()
        )
        return (row[0] or 0, row[1] or 0) if row else (0, 0)
    totals = (
        Assignment.objects.filter(project=project, user=user, kind=kind)
        .exclude(status=Assignment.Status.CANCELLED)
        .aggregate(total=Count("id"), done=Count("id", filter=Q(status=Assignment.Status.DONE)))
    )
    return totals["done"], totals["total"]


def _tally_progress(*, project: Project, user_id: int, kind: str) -> dict[str, Subquery]:
    """`done` and `total` of a judge's assignments as subqueries of the counts the database keeps
    (AssignmentTally, PostgreSQL only), for judging_progress and judge_task_for to read in their own query."""
    tally = AssignmentTally.objects.filter(project=project, user_id=user_id, kind=kind).order_by()
    return {
        "done": Subquery(tally.filter(status=Assignment.Status.DONE).values("n")[:1]),
        "total": Subquery(
            tally.exclude(status=Assignment.Status.CANCELLED)
            .values("user_id")
            .annotate(total=Sum("n"))
            .values("total")[:1]
        ),
    }


def judging_overview(*, project: Project) -> dict[str, Any]:
    """How far round 1 of judging is: items by number of judgments and of planned judges, work per
    annotator, items by decision status. Five grouped queries whatever the project's size."""
    rule = get_task_type(project.task_type).judging_rule(project_settings(project))
    m, kind = (rule.per_round[0], rule.kind) if rule is not None else (0, "")
    items = Item.objects.filter(project=project, status__in=JUDGEABLE)
    by_status = dict(items.values_list("status").annotate(n=Count("id")).order_by())
    n_items = sum(by_status.values())
    answers = Counter(
        Judgment.objects.filter(project=project, kind=kind, item__status__in=JUDGEABLE)
        .values_list("item_id")
        .annotate(n=Count("id"))
        .order_by()
        .values_list("n", flat=True)
    )
    # Planned answerers of an item: open or done answer assignments (cancelled ones were moved), and the
    # slots a big plan has not written yet (annotation.services.planned_blocks).
    per_item = Counter(
        dict(
            Assignment.objects.filter(project=project, kind=kind, target_item__status__in=JUDGEABLE)
            .exclude(status=Assignment.Status.CANCELLED)
            .values_list("target_item_id")
            .annotate(n=Count("id"))
            .order_by()
            .values_list("target_item_id", "n")
        )
    )
    loads: dict[int, dict[str, int]] = {}
    if connection.vendor == "postgresql":
        # The database's tallies: a few rows per annotator instead of grouping every assignment.
        per_status = AssignmentTally.objects.filter(project=project, kind=kind).values_list("user_id", "status", "n")
    else:
        per_status = (
            Assignment.objects.filter(project=project, kind=kind)
            .values_list("user_id", "status")
            .annotate(n=Count("id"))
            .order_by()
        )
    blocks_waiting = False
    for user_id, status, n in per_status:
        # Slots not written yet are pending work all the same.
        loads.setdefault(user_id, Counter())[Assignment.Status.PENDING if status == PLANNED else status] += n
        blocks_waiting = blocks_waiting or (status == PLANNED and n > 0)
    if blocks_waiting:
        per_item.update(planned_slots_per_item(project_id=project.pk, kind=kind))
    planned = Counter(per_item.values())
    annotators = project_annotators(project_ids=[project.pk]).get(project.pk, [])
    return {
        "m": m,
        "items": n_items,
        "complete": sum(n for k, n in answers.items() if k >= m),
        "fully_planned": sum(n for k, n in planned.items() if k >= m),
        "histogram": _histogram(answers, planned, n_items, m),
        "status_counts": [
            (value, label, by_status.get(value, 0)) for value, label in Item.Status.choices if value in JUDGEABLE
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
