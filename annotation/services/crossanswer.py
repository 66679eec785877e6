"""Cross-answering plan: every approved item goes to m annotators who did not write it."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import connection, transaction
from django.db.models import Max
from django.utils import timezone

from annotation.errors import InvalidInput
from annotation.models import Assignment, Item, Judgment, Membership, Project
from annotation.planning import PlanningError, Unit, plan_balanced
from annotation.services.judgments import ANSWERABLE
from annotation.task_types import project_settings

BULK_BATCH = 5000
OPEN = (Assignment.Status.PENDING, Assignment.Status.ACTIVE)


@dataclass(frozen=True)
class CrossAnswerPlanSummary:
    created: int
    reactivated: int
    # Open (pending or active) answer assignments of annotators who left, cancelled and re-planned.
    moved: int
    items: int
    workers: int


@transaction.atomic
def assignment_plan_cross_answers(*, project: Project, seed: int | None = None) -> CrossAnswerPlanSummary:
    """Give every approved item `answerers_per_item` answerers, never its author, loads balanced.

    Balanced within one per category and overall (the planner's greedy least-loaded rule), and
    deterministic for a seed (the project's `plan_seed` by default). Idempotent and incremental:
    answers already given (judgments, imported ones included) and assignments held by active
    annotators count towards an item's quota and never move, so a re-plan only adds the items
    approved since and replaces the open work of annotators who left (their done work stays).
    """
    # One planner at a time per project: a second one waits, then sees the first one's rows.
    Project.objects.select_for_update().filter(pk=project.pk).get()
    seed = project.plan_seed if seed is None else seed
    m = project_settings(project)["answerers_per_item"]
    annotators = list(
        Membership.objects.filter(project=project, role=Membership.Role.ANNOTATOR, is_active=True)
        .order_by("user_id")
        .values_list("user_id", flat=True)
    )
    active = set(annotators)
    if len(annotators) < m + 1:
        raise InvalidInput(
            f"Cross-answering needs at least {m + 1} active annotators ({m} answerers per item besides its "
            f"author); the project has {len(annotators)}."
        )

    units: list[Unit] = []
    authors: dict[int, int] = {}
    for item_id, author_id, category_id in (
        Item.objects.filter(project=project, status__in=ANSWERABLE)
        .values_list("pk", "author_id", "concept__category_id")
        .order_by()
    ):
        units.append(Unit(id=item_id, group=category_id or 0))
        if author_id is not None:
            authors[item_id] = author_id

    held: dict[int, set[int]] = {}
    for item_id, user_id in (
        Judgment.objects.filter(project=project, kind=Assignment.Kind.ANSWER)
        .values_list("item_id", "user_id")
        .order_by()
    ):
        held.setdefault(item_id, set()).add(user_id)
    orphaned: list[int] = []
    cancelled: dict[tuple[int, int], int] = {}
    for aid, item_id, user_id, status in (
        Assignment.objects.filter(project=project, kind=Assignment.Kind.ANSWER)
        .values_list("pk", "target_item_id", "user_id", "status")
        .order_by()
    ):
        if status == Assignment.Status.DONE or (status in OPEN and user_id in active):
            held.setdefault(item_id, set()).add(user_id)
        elif status in OPEN:
            orphaned.append(aid)
        else:
            cancelled[(item_id, user_id)] = aid

    try:
        slots = plan_balanced(
            units=units,
            workers=annotators,
            per_unit=m,
            seed=seed,
            held=held,
            excluded={item_id: (author_id,) for item_id, author_id in authors.items()},
        )
    except PlanningError as exc:
        raise InvalidInput(f"Cross-answering needs {m} annotators per item besides its author; {exc}") from None

    if orphaned:
        Assignment.objects.filter(pk__in=orphaned).update(status=Assignment.Status.CANCELLED, lease_expires_at=None)
    # New work queues after the work already handed out.
    base = Assignment.objects.filter(project=project, kind=Assignment.Kind.ANSWER).aggregate(top=Max("position"))["top"]
    base = 0 if base is None else base + 1
    to_create: list[tuple[int, int, int | None, int]] = []
    reactivate: list[Assignment] = []
    for slot in slots:
        key = (slot.unit_id, slot.worker_id)
        if key in cancelled:
            reactivate.append(
                Assignment(pk=cancelled.pop(key), position=base + slot.position, status=Assignment.Status.PENDING)
            )
        else:
            to_create.append((slot.unit_id, slot.worker_id, authors.get(slot.unit_id), base + slot.position))
    Assignment.objects.bulk_update(reactivate, ["position", "status"], batch_size=BULK_BATCH)
    _insert_answer_assignments(project.pk, to_create)
    return CrossAnswerPlanSummary(
        created=len(to_create),
        reactivated=len(reactivate),
        moved=len(orphaned),
        items=len(units),
        workers=len(annotators),
    )


def _insert_answer_assignments(project_id: int, rows: list[tuple[int, int, int | None, int]]) -> None:
    """Write new answer assignments (item, user, item author, position) in one bulk operation.

    PostgreSQL gets COPY: a plan for 100,000 items is 500,000 rows, which COPY writes several times
    faster than batched INSERTs built from model instances. Rows go in item order so that the indexes
    on the item (and the unique item/user/kind one) grow at their right edge instead of at random
    pages. Other databases (the SQLite demo) use bulk_create.
    """
    if not rows:
        return
    now = timezone.now()
    if connection.vendor != "postgresql":
        Assignment.objects.bulk_create(
            [
                Assignment(
                    project_id=project_id,
                    user_id=user_id,
                    kind=Assignment.Kind.ANSWER,
                    target_item_id=item_id,
                    target_author_id=author_id,
                    position=position,
                    created_at=now,
                )
                for item_id, user_id, author_id, position in rows
            ],
            batch_size=BULK_BATCH,
        )
        return
    rows = sorted(rows)
    meta = Assignment._meta
    fields = ["project", "user", "kind", "target_item", "target_author", "status", "position", "created_at"]
    columns = ", ".join(connection.ops.quote_name(meta.get_field(f).column) for f in fields)
    table = connection.ops.quote_name(meta.db_table)
    # COPY's text format built here: several times faster than psycopg's write_row per row.
    line = (
        f"{project_id}\t{{}}\t{Assignment.Kind.ANSWER.value}\t{{}}\t{{}}\t{Assignment.Status.PENDING.value}"
        f"\t{{}}\t{now.isoformat()}\n"
    )
    null = "\\N"
    with connection.cursor() as cursor, cursor.copy(f"COPY {table} ({columns}) FROM STDIN") as copy:
        for start in range(0, len(rows), BULK_BATCH):
            copy.write(
                "".join(
                    line.format(user_id, item_id, null if author_id is None else author_id, position)
                    for item_id, user_id, author_id, position in rows[start : start + BULK_BATCH]
                )
            )
