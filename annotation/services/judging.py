"""The judging engine: who judges an approved item, in which round, planned from the task type's rule.

`judging_plan` plans round 1 in bulk (e.g. m judges per item, never the author); the next rounds
are planned one item at a time by `judgment_record` as soon as a gold decision asks for one
(`judging_plan_item_round`), or in bulk by `judging_plan_next_rounds` after an import or in a bench.
The rule itself (`TaskType.judging_rule(settings)`: kind, judges per round, share) is the task type's;
nothing here names a protocol.
"""

from __future__ import annotations

import hashlib
import logging
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from django.db import connection, transaction
from django.db.models import Count, F, IntegerField, Max, Subquery
from django.db.models.expressions import RawSQL
from django.db.models.functions import Coalesce, Greatest
from django.utils import timezone
from django.utils.translation import gettext

from annotation import hooks
from annotation.annotators import public_order, rank_of
from annotation.checks import mix_checks
from annotation.errors import InvalidInput
from annotation.foreign_keys import references_checked_once
from annotation.importing.bulkwrite import NULL, copy_lines, reserve_ids
from annotation.models import Assignment, AssignmentTally, Item, Judgment, Membership, PlannedBlock, Project
from annotation.models.items import JUDGEABLE
from annotation.planning import PlanningError, Unit, plan_balanced, plan_balanced_columns
from annotation.scope import judges_out_of_scope
from annotation.selectors.skips import skipped_units
from annotation.services.planned_blocks import (
    PLANNED,
    planned_blocks_save,
    planned_blocks_wanted,
    planned_blocks_write_all,
)
from annotation.services.screening import admitted_only
from annotation.task_types import get_task_type, project_settings
from annotation.task_types.base import JudgingRule

logger = logging.getLogger(__name__)

BULK_BATCH = 5000
OPEN = (Assignment.Status.PENDING, Assignment.Status.ACTIVE)


@dataclass(frozen=True)
class JudgingPlanSummary:
    created: int
    reactivated: int
    # Open (pending or active) judge assignments of annotators who left, cancelled and re-planned.
    moved: int
    items: int
    workers: int


def judging_rule_for(project: Project) -> JudgingRule:
    """The project's judging rule; refused (InvalidInput) when its task type has no judging."""
    task_type = get_task_type(project.task_type)
    rule = task_type.judging_rule(project_settings(project))
    if rule is None:
        raise InvalidInput(gettext("%(label)s projects have no judging.") % {"label": task_type.label})
    return rule


def in_share(*, seed: int, item_id: int, share: float) -> bool:
    """Is the item in the judged share? A hash of (seed, item), so the sample is reproducible and an
    item once sampled stays sampled when more items are approved later."""
    if share >= 1.0:
        return True
    digest = hashlib.blake2b(f"{seed}:{item_id}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") / 2**64 < share


def ids_in(ids: Iterable[int]) -> list[int] | RawSQL:
    """The right side of an `__in` filter on a batch of ids.

    PostgreSQL gets them as one array parameter: thousands of separate placeholders per query cost
    seconds in Django's query building and psycopg's placeholder conversion at 120,000 items. The array
    goes as its text form ({1,2,3}), which psycopg sends as is, instead of a list it adapts element by
    element (a tenth of a 120,000-item gold recompute)."""
    if connection.vendor == "postgresql":
        return RawSQL("SELECT unnest(%s::bigint[])", ("{" + ",".join(str(int(i)) for i in ids) + "}",))
    return list(ids)


def _active_memberships(project: Project):
    return admitted_only(
        Membership.objects.filter(project=project, role=Membership.Role.ANNOTATOR, is_active=True), project=project
    )


def active_annotators(project: Project) -> list[int]:
    return list(_active_memberships(project).order_by("user_id").values_list("user_id", flat=True))


def _active_in_public_order(project: Project) -> list[int]:
    """active_annotators in the annotators' public order (annotation.annotators), in one query: one item's
    round needs the order of its candidates only, not every annotator project_annotators reads."""
    rows = _active_memberships(project).order_by().values_list("user_id", "code", "user__username")
    ordered = sorted(rows, key=lambda row: public_order(row[1] or row[2], row[0]))
    return [user_id for user_id, _, _ in ordered]


@transaction.atomic
def judging_plan(*, project: Project, seed: int | None = None) -> JudgingPlanSummary:
    """Plan round 1: every approved item in the rule's share gets `per_round[0]` judges, never its author.

    Balanced within one per category and overall (the planner's greedy least-loaded rule), and
    deterministic for a seed (the project's `plan_seed` by default). Idempotent and incremental:
    round-1 judgments already given (imported ones included) and assignments held by active
    annotators count towards an item's quota and never move, so a re-plan only adds the items
    approved since and replaces the open work of annotators who left (their done work stays).
    With a rule in rounds, the items planned enter round 1 (Item.judging_round = 1).
    """
    # One planner at a time per project: a second one waits, then sees the first one's rows.
    Project.objects.select_for_update().filter(pk=project.pk).get()
    seed = project.plan_seed if seed is None else seed
    rule = judging_rule_for(project)
    # A re-plan reads every assignment: the slots an earlier big plan left in blocks are written first.
    planned_blocks_write_all(project_id=project.pk, kind=rule.kind)
    annotators = active_annotators(project)
    _check_enough_judges(rule, annotators)
    units, authors, entering = _round_one_units(project, rule, seed)
    work = _round_one_work(project, rule, active=set(annotators))
    excluded = _round_one_exclusions(project, rule, units, authors, work.others, annotators)
    unit_ids, worker_ids, positions = _plan_round_one(project, rule, units, annotators, seed, work.held, excluded)
    if project.check_every >= 2:
        unit_ids, worker_ids = _with_checks(project, rule, seed, unit_ids, worker_ids, positions, authors, annotators)
        positions = range(len(unit_ids))
    if work.orphaned:
        Assignment.objects.filter(pk__in=work.orphaned).update(
            status=Assignment.Status.CANCELLED, lease_expires_at=None
        )
    created, reactivated = _write_round_one(project, rule, unit_ids, worker_ids, positions, authors, work.cancelled)
    if len(rule.per_round) > 1:
        # Only a rule with rounds reads the item's round (the next round is planned when the decision asks
        # for one above it). A single-round rule leaves it at 0: marking 100,000 items is one UPDATE of
        # 100,000 rows through the item table's 11 indexes, ~2 s of a ~12 s plan, for a value nothing reads.
        _enter_round(project, entering, 1, everything=rule.share >= 1.0)
    logger.info(
        "judging.planned",
        extra={"project": project.pk, "round": 1, "items": len(units), "assignments": created},
    )
    return JudgingPlanSummary(
        created=created,
        reactivated=reactivated,
        moved=len(work.orphaned),
        items=len(units),
        workers=len(annotators),
    )


def _check_enough_judges(rule: JudgingRule, annotators: list[int]) -> None:
    m = rule.per_round[0]
    # With rater groups, each group's planner checks its own numbers (an author need not be a rater).
    if len(annotators) < m + 1 and not rule.groups:
        raise InvalidInput(
            gettext(
                "%(activity)s needs at least %(m___1)s active annotators (%(m)s %(judges)s per item "
                "besides its author); the project has %(len)s."
            )
            % {"activity": rule.activity, "m___1": m + 1, "m": m, "judges": rule.judges, "len": len(annotators)}
        )


def _round_one_units(project: Project, rule: JudgingRule, seed: int) -> tuple[list[Unit], dict[int, int], list[int]]:
    """The judgeable items in round 1 or in the rule's share (a unit each, grouped by category), their
    authors, and those entering judging now (round 0)."""
    units: list[Unit] = []
    authors: dict[int, int] = {}
    entering: list[int] = []
    for item_id, author_id, category_id, judging_round in (
        Item.objects.filter(project=project, status__in=JUDGEABLE)
        .values_list("pk", "author_id", "concept__category_id", "judging_round")
        .order_by()
    ):
        if judging_round == 0 and not in_share(seed=seed, item_id=item_id, share=rule.share):
            continue
        units.append(Unit(id=item_id, group=category_id or 0))
        if judging_round == 0:
            entering.append(item_id)
        if author_id is not None:
            authors[item_id] = author_id
    return units, authors, entering


@dataclass
class _RoundOneWork:
    """What round 1 already has, read from the judgments and judge assignments of the rule's kind."""

    held: dict[int, set[int]]  # item -> judges whose round-1 work counts towards its quota
    others: dict[int, set[int]]  # item -> judges of its other rounds
    orphaned: list[int]  # open round-1 assignments of annotators who left: cancelled and re-planned
    cancelled: dict[tuple[int, int], int]  # (item, judge) -> a cancelled round-1 assignment to reactivate


def _round_one_work(project: Project, rule: JudgingRule, *, active: set[int]) -> _RoundOneWork:
    held: dict[int, set[int]] = {}
    # Judges of the item's other rounds may not judge it again in round 1 (one judgment per person).
    others: dict[int, set[int]] = defaultdict(set)
    for item_id, user_id, round_ in (
        Judgment.objects.filter(project=project, kind=rule.kind).values_list("item_id", "user_id", "round").order_by()
    ):
        (held.setdefault(item_id, set()) if round_ == 1 else others[item_id]).add(user_id)
    orphaned: list[int] = []
    cancelled: dict[tuple[int, int], int] = {}
    for aid, item_id, user_id, status, round_ in (
        Assignment.objects.filter(project=project, kind=rule.kind)
        .values_list("pk", "target_item_id", "user_id", "status", "round")
        .order_by()
    ):
        if round_ != 1:
            others[item_id].add(user_id)
        elif status == Assignment.Status.DONE or (status in OPEN and user_id in active):
            held.setdefault(item_id, set()).add(user_id)
        elif status in OPEN:
            orphaned.append(aid)
        else:
            cancelled[(item_id, user_id)] = aid
    return _RoundOneWork(held=held, others=others, orphaned=orphaned, cancelled=cancelled)


def _round_one_exclusions(
    project: Project,
    rule: JudgingRule,
    units: list[Unit],
    authors: dict[int, int],
    others: dict[int, set[int]],
    annotators: list[int],
) -> dict[int, tuple[int, ...]]:
    """item -> the judges it may never go to: its author, its other rounds' judges, who skipped it, and
    judges outside its author's scope."""
    excluded = {item_id: (author_id,) for item_id, author_id in authors.items()}
    for item_id, users in others.items():
        excluded[item_id] = (*excluded.get(item_id, ()), *users)
    # A skipped item never goes back to the judge who skipped it (annotation.services.skips).
    for item_id, user_id in skipped_units(project=project, kind=rule.kind):
        excluded[item_id] = (*excluded.get(item_id, ()), user_id)
    # A scoped task type (e.g. peers of the author's country): judges outside the author's scope never get it.
    for item_id, users in judges_out_of_scope(
        project=project, authors={u.id: authors.get(u.id) for u in units}, judges=annotators
    ).items():
        excluded[item_id] = (*excluded.get(item_id, ()), *users)
    return excluded


def _plan_round_one(
    project: Project,
    rule: JudgingRule,
    units: list[Unit],
    annotators: list[int],
    seed: int,
    held: dict[int, set[int]],
    excluded: dict[int, tuple[int, ...]],
) -> tuple[list[int], list[int], Iterable[int]]:
    """The plan's slots as (items, judges, positions), by rater group when the rule has groups."""
    m = rule.per_round[0]
    try:
        if rule.groups:
            slots = _plan_by_group(project, rule, units, annotators, seed, held, excluded)
            return [s.unit_id for s in slots], [s.worker_id for s in slots], [s.position for s in slots]
        unit_ids, worker_ids = plan_balanced_columns(
            units=units, workers=annotators, per_unit=m, seed=seed, held=held, excluded=excluded
        )
        return unit_ids, worker_ids, range(len(unit_ids))
    except PlanningError as exc:
        raise InvalidInput(
            gettext("%(activity)s needs %(m)s annotators per item besides its author; %(exc)s")
            % {"activity": rule.activity, "m": m, "exc": exc}
        ) from None


def _write_round_one(
    project: Project,
    rule: JudgingRule,
    unit_ids: list[int],
    worker_ids: list[int],
    positions: Iterable[int],
    authors: dict[int, int],
    cancelled: dict[tuple[int, int], int],
) -> tuple[int, int]:
    """Save the plan's slots after the work already queued; returns (created, reactivated). A cancelled
    assignment of the same judge and item is reactivated in place (the unique item/user/kind)."""
    base = next_judge_position(project.pk, rule.kind)
    # A big first plan (nothing to reactivate, positions in one run): its slots are stored in blocks,
    # written as the judges reach them (annotation.services.planned_blocks). Rater groups interleave
    # positions and split an item's judges across the groups' plans, so they are written at once.
    if not rule.groups and not cancelled and planned_blocks_wanted(len(unit_ids)):
        planned_blocks_save(
            project_id=project.pk, kind=rule.kind, round_=1, first_position=base, item_ids=unit_ids, user_ids=worker_ids
        )
        return len(unit_ids), 0
    to_create: list[tuple[int, int, int | None, int]] = []
    reactivate: list[Assignment] = []
    for unit_id, worker_id, position in zip(unit_ids, worker_ids, positions, strict=True):
        key = (unit_id, worker_id)
        if key in cancelled:
            reactivate.append(
                Assignment(pk=cancelled.pop(key), position=base + position, status=Assignment.Status.PENDING)
            )
        else:
            to_create.append((unit_id, worker_id, authors.get(unit_id), base + position))
    Assignment.objects.bulk_update(reactivate, ["position", "status"], batch_size=BULK_BATCH)
    _insert_judge_assignments(project.pk, rule.kind, 1, to_create)
    return len(to_create), len(reactivate)


def _with_checks(
    project: Project,
    rule: JudgingRule,
    seed: int,
    unit_ids: list[int],
    worker_ids: list[int],
    positions: Iterable[int],
    authors: dict[int, int],
    annotators: list[int],
) -> tuple[list[int], list[int]]:
    """The plan's slots in queue order with the project's known-answer checks mixed in (one in
    `check_every` of each judge's items; annotation.checks.mix_checks). A judge never gets their own
    check, one outside their scope (annotation.scope) or one they hold already: the unique (item, user,
    kind) allows one row each. The checks' authors are added to `authors` for the rows written."""
    checks: list[int] = []
    refused: dict[int, set[int]] = defaultdict(set)
    check_authors: dict[int, int | None] = {}
    for item_id, author_id in Item.objects.filter(project=project, status=Item.Status.CHECK).values_list(
        "pk", "author_id"
    ):
        checks.append(item_id)
        check_authors[item_id] = author_id
        if author_id is not None:
            refused[author_id].add(item_id)
            authors[item_id] = author_id
    if not checks:
        return unit_ids, worker_ids
    for item_id, users in judges_out_of_scope(project=project, authors=check_authors, judges=annotators).items():
        for user_id in users:
            refused[user_id].add(item_id)
    for item_id, user_id in Assignment.objects.filter(
        project=project, kind=rule.kind, target_item__status=Item.Status.CHECK
    ).values_list("target_item_id", "user_id"):
        refused[user_id].add(item_id)
    order = sorted(range(len(unit_ids)), key=list(positions).__getitem__)
    return mix_checks(
        item_ids=[unit_ids[i] for i in order],
        user_ids=[worker_ids[i] for i in order],
        checks=checks,
        every=project.check_every,
        seed=seed,
        refused=refused,
    )


def _plan_by_group(
    project: Project,
    rule: JudgingRule,
    units: list[Unit],
    annotators: list[int],
    seed: int,
    held: dict[int, set[int]],
    excluded: dict[int, tuple[int, ...]],
) -> list:
    """Round 1 with JudgingRule.groups: per_round[0] // len(groups) judges per item from each group's
    active annotators (Membership.group), each group planned on its own; positions interleave."""
    per_group = rule.per_round[0] // len(rule.groups)
    group_of = dict(Membership.objects.filter(project=project, user_id__in=annotators).values_list("user_id", "group"))
    slots: list = []
    for index, group in enumerate(rule.groups):
        workers = [u for u in annotators if group_of.get(u) == group]
        if len(workers) < per_group:
            raise PlanningError(f"group {group} has {len(workers)} active annotators, {per_group} needed per item")
        members = set(workers)
        group_held = {i: users & members for i, users in held.items() if users & members}
        group_slots = plan_balanced(
            units=units, workers=workers, per_unit=per_group, seed=seed + index, held=group_held, excluded=excluded
        )
        slots.extend(s._replace(position=s.position * len(rule.groups) + index) for s in group_slots)
    return slots


def _enter_round(project: Project, item_ids: list[int], round_: int, *, everything: bool = False) -> None:
    """Item.judging_round = round_ for items still in an earlier round."""
    if not item_ids:
        return
    if everything and round_ == 1:
        # The whole share: one statement instead of 100,000 ids (same rows: judgeable and not in judging).
        Item.objects.filter(project=project, status__in=JUDGEABLE, judging_round=0).update(judging_round=1)
        return
    for start in range(0, len(item_ids), BULK_BATCH):
        Item.objects.filter(pk__in=ids_in(item_ids[start : start + BULK_BATCH]), judging_round__lt=round_).update(
            judging_round=round_
        )


def next_judge_position(project_id: int, kind: str) -> int:
    """New work queues after the work already handed out, and after the slots a big plan has not written
    yet (annotation.services.planned_blocks): one query."""
    after_rows = Assignment.objects.filter(project_id=project_id, kind=kind).values("project_id")
    after_blocks = PlannedBlock.objects.filter(project_id=project_id, kind=kind).values("project_id")
    return (
        Project.objects.filter(pk=project_id)
        .values_list(
            Greatest(
                Coalesce(Subquery(after_rows.annotate(top=Max("position") + 1).values("top")), 0),
                Coalesce(Subquery(after_blocks.annotate(top=Max(F("first_position") + F("slots"))).values("top")), 0),
                output_field=IntegerField(),
            ),
            flat=True,
        )
        .get()
    )


def judging_plan_item_round(*, project: Project, item: Item, rule: JudgingRule, round_: int) -> list[Assignment]:
    """Plan round `round_` of one item of `project` whose decision asks for it; the caller holds the item's
    row lock (and has read the project: a submit has it from the assignment).

    Judges: `per_round[round_ - 1]` active annotators who are not the author and never judged the item
    (nor hold any assignment for it), fewest open assignments first, ties in the project's annotator
    order. The lock is what makes it happen once when two judges finish at the same moment: the second
    waits, then sees `judging_round` already raised and the gold engine asks for nothing.
    When too few are eligible the round gets those there are (logged); an admin re-plan can add more.
    """
    need = rule.per_round[round_ - 1]
    # Who judged the item or holds work on it, in one query.
    judged = Judgment.objects.filter(item=item, kind=rule.kind).order_by().values_list("user_id", flat=True)
    assigned = Assignment.objects.filter(target_item=item, kind=rule.kind).order_by().values_list("user_id", flat=True)
    blocked = set(judged.union(assigned))
    if item.author_id is not None:
        blocked.add(item.author_id)
    candidates = [u for u in _active_in_public_order(project) if u not in blocked]
    out_of_scope = judges_out_of_scope(project=project, authors={item.pk: item.author_id}, judges=candidates)
    candidates = [u for u in candidates if u not in out_of_scope.get(item.pk, ())]
    loads = open_judge_loads(item.project_id, rule.kind, candidates)
    ranks = {user_id: n for n, user_id in enumerate(candidates)}  # ties in the annotators' public order
    chosen = pick_judges(candidates=candidates, loads=loads, ranks=ranks, need=need)
    if len(chosen) < need:
        logger.warning(
            "judging.round_short",
            extra={"item": item.pk, "round": round_, "needed": need, "eligible": len(chosen)},
        )
    base = next_judge_position(item.project_id, rule.kind)
    now = timezone.now()
    created = Assignment.objects.bulk_create(
        [
            Assignment(
                project_id=item.project_id,
                user_id=user_id,
                kind=rule.kind,
                round=round_,
                target_item_id=item.pk,
                target_author_id=item.author_id,
                position=base + i,
                created_at=now,
            )
            for i, user_id in enumerate(chosen)
        ]
    )
    Item.objects.filter(pk=item.pk).update(judging_round=round_)
    item.judging_round = round_
    logger.info("judging.round_planned", extra={"item": item.pk, "round": round_, "judges": len(chosen)})
    return created


def open_judge_loads(project_id: int, kind: str, users: list[int]) -> dict[int, int]:
    """Open (pending or active) assignments per user: from the tallies on PostgreSQL (a few rows, where
    counting read every open row of the candidates, once per item planned), with the slots a big plan
    has not written yet (annotation.services.planned_blocks), else counted."""
    if connection.vendor == "postgresql":
        loads: dict[int, int] = defaultdict(int)
        for user_id, n in AssignmentTally.objects.filter(
            project_id=project_id, kind=kind, status__in=(*OPEN, PLANNED), user_id__in=users
        ).values_list("user_id", "n"):
            loads[user_id] += n
        return dict(loads)
    return dict(
        Assignment.objects.filter(project_id=project_id, kind=kind, status__in=OPEN, user_id__in=users)
        .values_list("user_id")
        .annotate(n=Count("id"))
        .order_by()
    )


def pick_judges(*, candidates: list[int], loads: dict[int, int], ranks: dict[int, int], need: int) -> list[int]:
    """Pure: the `need` candidates with the fewest open assignments, ties in annotator order."""
    return sorted(candidates, key=lambda u: (loads.get(u, 0), rank_of(ranks, u)))[:need]


@transaction.atomic
def judging_plan_next_rounds(*, project: Project, seed: int | None = None) -> JudgingPlanSummary:
    """Bulk catch-up: plan round n for every item whose gold decision asks for it and has none yet.

    Undecided items already in judging are re-decided (the gold engine) to learn which round each asks for;
    items in a round n >= 2 with fewer judges than the rule asks are topped up. Used after imports and
    by benches; judgment_record plans the same rounds one item at a time as judgments arrive.
    """
    Project.objects.select_for_update().filter(pk=project.pk).get()
    seed = project.plan_seed if seed is None else seed
    rule = judging_rule_for(project)
    empty = JudgingPlanSummary(created=0, reactivated=0, moved=0, items=0, workers=0)
    if len(rule.per_round) < 2:
        return empty
    planned_blocks_write_all(project_id=project.pk, kind=rule.kind)  # the rounds read every assignment
    pending = dict(
        Item.objects.filter(project=project, status=Item.Status.APPROVED, judging_round__gte=1)
        .values_list("pk", "judging_round")
        .order_by()
    )
    if not pending:
        return empty
    asks = hooks.gold_recompute_for_rounds(project=project, item_ids=list(pending)).next_rounds
    by_round: dict[int, set[int]] = defaultdict(set)
    for item_id, round_ in asks.items():
        by_round[round_].add(item_id)
    for item_id, round_ in pending.items():
        if round_ >= 2 and item_id not in asks:
            by_round[round_].add(item_id)  # top-up of a short round
    annotators = active_annotators(project)
    created = 0
    planned_items = 0
    for round_ in sorted(by_round):
        if round_ > len(rule.per_round):
            continue
        item_ids = sorted(by_round[round_])
        created += _plan_round_bulk(project, rule, round_, item_ids, annotators, seed)
        _enter_round(project, [i for i in item_ids if i in asks], round_)
        planned_items += len(item_ids)
    logger.info(
        "judging.next_rounds_planned", extra={"project": project.pk, "items": planned_items, "assignments": created}
    )
    return JudgingPlanSummary(created=created, reactivated=0, moved=0, items=planned_items, workers=len(annotators))


def _plan_round_bulk(
    project: Project, rule: JudgingRule, round_: int, item_ids: list[int], annotators: list[int], seed: int
) -> int:
    need = rule.per_round[round_ - 1]
    ids = set(item_ids)
    units, authors, statuses = [], {}, set()
    for start in range(0, len(item_ids), BULK_BATCH):
        for item_id, author_id, category_id, status in Item.objects.filter(
            pk__in=ids_in(item_ids[start : start + BULK_BATCH])
        ).values_list("pk", "author_id", "concept__category_id", "status"):
            statuses.add(status)
            units.append(Unit(id=item_id, group=category_id or 0))
            if author_id is not None:
                authors[item_id] = author_id
    held: dict[int, set[int]] = defaultdict(set)
    excluded: dict[int, set[int]] = defaultdict(set)
    for item_id, author_id in authors.items():
        excluded[item_id].add(author_id)
    active = set(annotators)
    # Items planned here are mostly undecided (approved): the database leaves out the rows of items in
    # other states, most of a project's once round 1 is in (~200,000 of 240,000 rows in bench/nli_rounds.py).
    for item_id, user_id, r in (
        Judgment.objects.filter(project=project, kind=rule.kind, item__status__in=statuses)
        .values_list("item_id", "user_id", "round")
        .order_by()
    ):
        if item_id in ids:
            (held if r == round_ else excluded)[item_id].add(user_id)
    for item_id, user_id, r, status in (
        Assignment.objects.filter(project=project, kind=rule.kind, target_item__status__in=statuses)
        .values_list("target_item_id", "user_id", "round", "status")
        .order_by()
    ):
        if item_id not in ids:
            continue
        if r == round_ and (status == Assignment.Status.DONE or (status in OPEN and user_id in active)):
            held[item_id].add(user_id)
        else:
            excluded[item_id].add(user_id)  # any other row would collide with the one-per-person constraint
    try:
        slots = plan_balanced(
            units=units, workers=annotators, per_unit=need, seed=seed + round_, held=held, excluded=excluded
        )
    except PlanningError as exc:
        raise InvalidInput(
            gettext("%(activity)s round %(round)s needs %(need)s more annotators per item; %(exc)s")
            % {"activity": rule.activity, "round": round_, "need": need, "exc": exc}
        ) from None
    base = next_judge_position(project.pk, rule.kind)
    _insert_judge_assignments(
        project.pk,
        rule.kind,
        round_,
        [(s.unit_id, s.worker_id, authors.get(s.unit_id), base + s.position) for s in slots],
    )
    return len(slots)


def _insert_judge_assignments(
    project_id: int, kind: str, round_: int, rows: list[tuple[int, int, int | None, int]]
) -> None:
    """Write new judge assignments (item, user, item author, position) in one bulk operation.

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
                    kind=kind,
                    round=round_,
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
    fields = ["id", "project", "user", "kind", "round", "target_item", "target_author", "status", "position"]
    # COPY's text format built here: several times faster than psycopg's write_row per row. The kind
    # comes from a task type's code, never from input; it must not hold COPY's separators.
    if any(ch in kind for ch in "\t\n\\"):
        raise ValueError(f"Unusable assignment kind {kind!r}.")
    pending = Assignment.Status.PENDING.value
    line = f"{{}}\t{project_id}\t{{}}\t{kind}\t{round_}\t{{}}\t{{}}\t{pending}\t{{}}\t{now.isoformat()}\n"
    ids = reserve_ids(Assignment, len(rows))
    # The foreign keys (user, item) are checked once for the plan, not per row (annotation.foreign_keys).
    with references_checked_once() as bulk:
        with bulk.triggers_off():
            copy_lines(
                Assignment,
                [*fields, "created_at"],
                (
                    line.format(assignment_id, user_id, item_id, NULL if author_id is None else author_id, position)
                    for assignment_id, (item_id, user_id, author_id, position) in zip(ids, rows, strict=True)
                ),
            )
        bulk.wrote(Assignment, ids)
        bulk.points_at(Assignment, "user", {row[1] for row in rows})
        bulk.points_at(Assignment, "target_item", {row[0] for row in rows})
        bulk.points_at(Assignment, "concept", ())
