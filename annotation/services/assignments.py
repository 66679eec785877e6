from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta

from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext

from annotation.errors import InvalidInput
from annotation.models import Assignment, Concept, Membership, PlannedBlock, Project
from annotation.planning import PlannedSlot, PlanningError, Unit, plan_balanced
from annotation.selectors.skips import skipped_units
from annotation.services.known_answers import pause_gate
from annotation.services.planned_blocks import planned_blocks_write_for
from annotation.services.screening import admitted_only, work_gate
from annotation.task_types import get_task_type

BULK_BATCH = 5000


@dataclass(frozen=True)
class PlanSummary:
    created: int
    kept: int
    removed: int
    reactivated: int
    workers: int
    units: int


@transaction.atomic
def assignment_plan_authoring(*, project: Project, seed: int | None = None) -> PlanSummary:
    """Plan authoring: every concept to `authors_per_concept` distinct active annotators, balanced.

    Work that is started or done (status active/done) never moves. Unstarted (pending) work stays
    with its annotator unless balance needs it elsewhere: after a join the newcomer gets a fair share,
    after a leave only the leaver's work is dealt out. Rows the new plan drops are removed (they carry
    no data), new ones are bulk-created. Work started by an annotator who has since left is cancelled
    and re-planned.
    """
    # One planner at a time per project: a second one waits, then sees the first one's rows.
    Project.objects.select_for_update().filter(pk=project.pk).get()
    seed = project.plan_seed if seed is None else seed
    annotators = _authoring_annotators(project)
    units = _authoring_units(project)
    existing = _existing_authoring(project, active=set(annotators))
    # Unstarted work stays with its annotator unless balance needs it elsewhere (someone joined or left).
    preferred: dict[int, set[int]] = {}
    for concept_id, user_id in existing.pending:
        if user_id in existing.active:
            preferred.setdefault(concept_id, set()).add(user_id)
    try:
        slots = plan_balanced(
            units=units,
            workers=annotators,
            per_unit=project.authors_per_concept,
            seed=seed,
            held=existing.held,
            excluded=_authoring_exclusions(project),
            preferred=preferred,
        )
    except PlanningError as exc:
        raise InvalidInput(str(exc)) from None
    return _authoring_plan_save(project, slots, existing, workers=len(annotators), units=len(units))


def _authoring_annotators(project: Project) -> list[int]:
    """The admitted active annotators' user ids, in user order; refused when fewer than a concept needs."""
    annotators = list(
        admitted_only(
            Membership.objects.filter(project=project, role=Membership.Role.ANNOTATOR, is_active=True), project=project
        )
        .order_by("user_id")
        .values_list("user_id", flat=True)
    )
    k = project.authors_per_concept
    if len(annotators) < k:
        raise InvalidInput(
            gettext("Planning needs at least %(k)s active annotators (authors per concept); the project has %(len)s.")
            % {"k": k, "len": len(annotators)}
        )
    return annotators


def _authoring_units(project: Project) -> list[Unit]:
    """The concepts authoring plans, each in its category's group."""
    # Retired concepts get no new work (their unstarted rows are removed with the plan); their items stay.
    concepts = Concept.objects.filter(project=project, retired_at__isnull=True)
    picking = get_task_type(project.task_type).unit_picking
    slot_key = picking.plan_slot_key if picking is not None else ""
    if slot_key and concepts.filter(**{f"data__{slot_key}": True}).exists():
        # Writing slots: only they are planned (the author picks the item's own unit when writing).
        concepts = concepts.filter(**{f"data__{slot_key}": True})
    return [Unit(id=cid, group=cat) for cid, cat in concepts.values_list("id", "category_id")]


def _authoring_exclusions(project: Project) -> dict[int, set[int]]:
    """concept id -> the users the plan must never give it to."""
    # An authoring row with a target item was asked for outside the plan (a KALAHI variant request of a
    # base prompt): the plan neither moves nor removes it, and never plans its writer on that unit again.
    asked = Assignment.objects.filter(project=project, kind=Assignment.Kind.AUTHOR, target_item__isnull=False)
    excluded: dict[int, set[int]] = {}
    for concept_id, user_id in asked.values_list("concept_id", "user_id"):
        excluded.setdefault(concept_id, set()).add(user_id)
    # A skipped unit never goes back to the annotator who skipped it (annotation.services.skips).
    for concept_id, user_id in skipped_units(project=project, kind=Assignment.Kind.AUTHOR):
        excluded.setdefault(concept_id, set()).add(user_id)
    return excluded


@dataclass
class _ExistingAuthoring:
    """The project's planned authoring rows, sorted by what the new plan may do with them."""

    active: set[int]  # the annotators who may be planned
    held: dict[int, set[int]] = field(default_factory=dict)  # concept -> users whose work there never moves
    pending: dict[tuple[int, int], tuple[int, int]] = field(default_factory=dict)  # (concept, user) -> (id, position)
    cancelled: dict[tuple[int, int], int] = field(default_factory=dict)  # (concept, user) -> id
    orphaned_started: list[int] = field(default_factory=list)  # started by someone who has left


def _existing_authoring(project: Project, *, active: set[int]) -> _ExistingAuthoring:
    existing = _ExistingAuthoring(active=active)
    rows = Assignment.objects.filter(project=project, kind=Assignment.Kind.AUTHOR, target_item__isnull=True)
    for aid, concept_id, user_id, status, position in rows.values_list(
        "id", "concept_id", "user_id", "status", "position"
    ):
        if status == Assignment.Status.DONE or (status == Assignment.Status.ACTIVE and user_id in active):
            existing.held.setdefault(concept_id, set()).add(user_id)
        elif status == Assignment.Status.ACTIVE:
            existing.orphaned_started.append(aid)
        elif status == Assignment.Status.PENDING:
            existing.pending[(concept_id, user_id)] = (aid, position)
        else:
            existing.cancelled[(concept_id, user_id)] = aid
    return existing


def _authoring_plan_save(
    project: Project, slots: list[PlannedSlot], existing: _ExistingAuthoring, *, workers: int, units: int
) -> PlanSummary:
    """Write the plan over the existing rows: keep, move, reactivate, create; remove what it dropped."""
    if existing.orphaned_started:
        Assignment.objects.filter(pk__in=existing.orphaned_started).update(
            status=Assignment.Status.CANCELLED, lease_expires_at=None
        )
    pending, cancelled = dict(existing.pending), dict(existing.cancelled)
    to_create: list[tuple[int, int, int]] = []
    kept = 0
    keep_positions: list[Assignment] = []
    reactivate: list[Assignment] = []
    for slot in slots:
        key = (slot.unit_id, slot.worker_id)
        if key in pending:
            aid, position = pending.pop(key)
            kept += 1
            # Only moved rows are written: re-planning an unchanged project updates nothing.
            if position != slot.position:
                keep_positions.append(Assignment(pk=aid, position=slot.position))
        elif key in cancelled:
            reactivate.append(
                Assignment(pk=cancelled.pop(key), position=slot.position, status=Assignment.Status.PENDING)
            )
        else:
            to_create.append((slot.unit_id, slot.worker_id, slot.position))
    removed = 0
    if pending:
        # A claim may have committed since the rows were read: lock them and re-check that they are
        # still pending, so started work is never deleted (a row claimed meanwhile stays beside its new slot).
        still_pending = list(
            Assignment.objects.select_for_update()
            .filter(pk__in=[aid for aid, _ in pending.values()], status=Assignment.Status.PENDING)
            .values_list("pk", flat=True)
        )
        removed = len(still_pending)
        Assignment.objects.filter(pk__in=still_pending).delete()
    Assignment.objects.bulk_update(keep_positions, ["position"], batch_size=BULK_BATCH)
    Assignment.objects.bulk_update(reactivate, ["position", "status"], batch_size=BULK_BATCH)
    _insert_authoring(project=project, rows=to_create)
    return PlanSummary(
        created=len(to_create),
        kept=kept,
        removed=removed,
        reactivated=len(reactivate),
        workers=workers,
        units=units,
    )


def _insert_authoring(*, project: Project, rows: list[tuple[int, int, int]]) -> None:
    """Save new (concept, user, position) authoring rows in one bulk write.

    On PostgreSQL this is COPY: 200,000 rows take about 2 s, where building model instances and
    batched INSERTs take about 15 s.
    """
    if connection.vendor != "postgresql":
        Assignment.objects.bulk_create(
            (
                Assignment(project=project, user_id=u, kind=Assignment.Kind.AUTHOR, concept_id=c, position=p)
                for c, u, p in rows
            ),
            batch_size=BULK_BATCH,
        )
        return
    fields = ["project", "user", "kind", "concept", "status", "position", "created_at"]
    meta = Assignment._meta
    columns = ", ".join(connection.ops.quote_name(meta.get_field(f).column) for f in fields)
    table = connection.ops.quote_name(meta.db_table)
    # COPY's text format, written in chunks: formatting rows here is several times faster than write_row.
    line = f"{project.pk}\t{{}}\t{Assignment.Kind.AUTHOR.value}\t{{}}\t{Assignment.Status.PENDING.value}\t{{}}\t"
    line += timezone.now().isoformat() + "\n"
    with connection.cursor() as cursor, cursor.copy(f"COPY {table} ({columns}) FROM STDIN") as copy:
        for start in range(0, len(rows), BULK_BATCH):
            copy.write("".join(line.format(u, c, p) for c, u, p in rows[start : start + BULK_BATCH]))


def _lease_deadline():
    return timezone.now() + timedelta(seconds=settings.GOTONG_ASSIGNMENT_LEASE_SECONDS)


def assignment_claim_next(*, project: Project, user: AbstractBaseUser, kind: str) -> Assignment | None:
    """Hand the user their next unit of work and lease it to them.

    `SKIP LOCKED` lets concurrent requests (several tabs, several workers) each take a different row
    without waiting; the lease marks it taken once the claim commits.
    """
    work_gate(project=project, user_id=user.pk)  # screening: no query unless the project requires it
    pause_gate(project=project, user_id=user.pk)  # no query unless the project pauses annotators
    if connection.vendor == "postgresql":
        return _claim_or_write_planned(project_id=project.pk, user_id=user.pk, kind=kind, resume=False)
    return _claim_in_transaction(project=project, user=user, kind=kind)


def assignment_resume_or_claim(*, project: Project, user: AbstractBaseUser, kind: str) -> Assignment | None:
    """The unit the user has open (leased to them, lease not run out) to resume it, else their next one
    claimed as assignment_claim_next claims it; None when nothing is left.

    On PostgreSQL both are one statement (see _claim_statement): the judging API's next and the queue
    page paid five round trips for them (the open-unit read, BEGIN, the locked read, the update, COMMIT).
    """
    pause_gate(project=project, user_id=user.pk)  # no query unless the project pauses annotators
    if connection.vendor != "postgresql" or project.screening_required:
        # The screening gate refuses a claim but never an open unit: it needs the two steps.
        from annotation.selectors import assignment_current  # selectors load before services

        return assignment_current(project=project, user=user, kind=kind) or assignment_claim_next(
            project=project, user=user, kind=kind
        )
    return _claim_or_write_planned(project_id=project.pk, user_id=user.pk, kind=kind, resume=True)


def _claim_or_write_planned(*, project_id: int, user_id: int, kind: str, resume: bool) -> Assignment | None:
    """The claim; when the user's queue is dry and a big plan still has slots in blocks, the next blocks
    are written (annotation.services.planned_blocks) and the claim tried again. Again as long as blocks
    wait: the user's other tab may have claimed what was just written."""
    assignment, blocks_waiting = _claim_statement(project_id=project_id, user_id=user_id, kind=kind, resume=resume)
    while assignment is None and blocks_waiting:
        if not planned_blocks_write_for(project_id=project_id, kind=kind, user_id=user_id):
            break
        assignment, blocks_waiting = _claim_statement(project_id=project_id, user_id=user_id, kind=kind, resume=resume)
    return assignment


@transaction.atomic
def _claim_in_transaction(*, project: Project, user: AbstractBaseUser, kind: str) -> Assignment | None:
    # Other databases (the SQLite demo: no SKIP LOCKED, small queues): the two reads one after the other.
    now = timezone.now()
    queue = Assignment.objects.select_for_update(skip_locked=True).filter(project=project, user=user, kind=kind)
    assignment = (
        queue.filter(status=Assignment.Status.ACTIVE, lease_expires_at__lt=now).order_by("position", "id").first()
        or queue.filter(status=Assignment.Status.PENDING).order_by("position", "id").first()
    )
    if assignment is None:
        return None
    assignment.status = Assignment.Status.ACTIVE
    assignment.lease_expires_at = _lease_deadline()
    assignment.started_at = assignment.started_at or now
    assignment.save(update_fields=["status", "lease_expires_at", "started_at"])
    return assignment


# Candidates per claim: far more than the claims one user can have in flight at once (each holds its row
# for a few milliseconds), so SKIP LOCKED still finds a free one among them; an empty queue costs no
# second read.
CLAIM_CANDIDATES = 64
# Statements per claim at most: another one only when every candidate was taken meanwhile.
CLAIM_ATTEMPTS = 3


def _claim_statement(*, project_id: int, user_id: int, kind: str, resume: bool) -> tuple[Assignment | None, bool]:
    """Claim on PostgreSQL in one statement: pick and lock the first claimable row (SKIP LOCKED), lease
    it and return it (UPDATE ... RETURNING). A single statement commits on its own, so the claim needs
    no BEGIN and COMMIT round trips. With `resume`, the user's open unit (active, lease not run out,
    first by position) comes back instead, untouched, and nothing is claimed.

    `pending OR (active AND expired)` as one condition keeps the queue index (project, user, kind, status,
    position) from giving the order: PostgreSQL scanned and sorted all of a judge's open rows (40 ms at
    83,000, against 1.7 ms). So the candidates come from two index-ordered reads (the user's few active
    rows with a lapsed lease, the first pending rows), and the claimable condition is checked again on
    the row locked, as the other requests may have claimed it meanwhile.

    Also returns whether a big plan has slots of this kind waiting in blocks (read in the same
    statement, so a claim pays nothing for it): the caller writes them when nothing was claimable.
    """
    quote = connection.ops.quote_name
    table = quote(Assignment._meta.db_table)
    fields = [f.attname for f in Assignment._meta.concrete_fields]
    columns = ", ".join(f"a.{quote(Assignment._meta.get_field(f).column)}" for f in fields)
    active, pending = Assignment.Status.ACTIVE.value, Assignment.Status.PENDING.value
    mine = "a.project_id = %(project)s AND a.user_id = %(user)s AND a.kind = %(kind)s"
    first = f"ORDER BY a.position, a.id LIMIT {CLAIM_CANDIDATES}"
    # Only quoted names and constants are formatted in; every value is a bound parameter.
    sql = (
        f"WITH candidate AS ((SELECT a.id FROM {table} a WHERE {mine} AND a.status = %(active)s "
        f"AND a.lease_expires_at < %(now)s {first}) UNION ALL "
        f"(SELECT a.id FROM {table} a WHERE {mine} AND a.status = %(pending)s {first}))"
    )
    gate = ""
    if resume:
        sql += (
            f", open AS (SELECT {columns} FROM {table} a WHERE {mine} AND a.status = %(active)s "
            "AND a.lease_expires_at >= %(now)s ORDER BY a.position, a.id LIMIT 1)"
        )
        gate = "AND NOT EXISTS (SELECT 1 FROM open) "
    sql += (
        f", picked AS (SELECT a.id FROM {table} a WHERE a.id IN (SELECT id FROM candidate) AND {mine} "
        "AND (a.status = %(pending)s OR (a.status = %(active)s AND a.lease_expires_at < %(now)s)) "
        f"{gate}ORDER BY a.position, a.id LIMIT 1 FOR UPDATE SKIP LOCKED), "
        f"claimed AS (UPDATE {table} a SET status = %(active)s, lease_expires_at = %(lease)s, "
        f"started_at = COALESCE(a.started_at, %(now)s) FROM picked WHERE a.id = picked.id RETURNING {columns}) "
    )
    # Always one row: the assignment (or NULLs), and whether there were candidates at all.
    found = "SELECT * FROM open UNION ALL SELECT * FROM claimed" if resume else "SELECT * FROM claimed"
    blocks = quote(PlannedBlock._meta.db_table)
    sql += (
        f"SELECT c.*, EXISTS (SELECT 1 FROM candidate), EXISTS (SELECT 1 FROM {blocks} b WHERE "
        f"b.project_id = %(project)s AND b.kind = %(kind)s) FROM (SELECT 1) one LEFT JOIN ({found}) c ON true"
    )
    for _ in range(CLAIM_ATTEMPTS):
        now = timezone.now()
        params = {
            "project": project_id,
            "user": user_id,
            "kind": kind,
            "now": now,
            "lease": _lease_deadline(),
            "active": active,
            "pending": pending,
        }
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            *row, had_candidates, blocks_waiting = cursor.fetchone()
        if row[0] is not None:
            return Assignment.from_db(connection.alias, fields, row), blocks_waiting
        if not had_candidates:
            return None, blocks_waiting
        # Every candidate was taken by other claims since the statement's snapshot (a burst of tabs
        # claiming at once, faster than one statement): the next statement reads the queue afresh.
    return None, blocks_waiting
