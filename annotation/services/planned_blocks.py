"""Big judging plans: every slot decided at once, written into the assignment table as judges reach it.

A first plan of 100,000 items for five judges each is 500,000 assignments. Deciding them takes the
planner well under a second; writing them into the assignment table (three indexes, foreign keys and
the tallies' triggers) cost seven to ten times a plain COPY of as many rows, and most of them are
only opened days later. So a plan of at least GOTONG_PLAN_BLOCKS_FROM slots (PostgreSQL) stores its
slots in PlannedBlock rows (whole units, GOTONG_PLAN_BLOCK_SLOTS slots or a little more each, in queue
order) and counts them in each judge's tallies under the status "planned". The blocks are written in
queue order:
- when a judge's claim finds nothing to claim and blocks are waiting (the claim statement says so):
  blocks are written until the judge has pending work or none are left;
- all at once before anything plans the project again (a re-plan reads every assignment).
A block's slots get the positions the plan gave them, so every judge's queue hands out the same items
in the same order as a plan written at once. The slots of items that left judging meanwhile (sent back
to their author) are dropped when written, as a plan written at once would have had them cancelled.

Readers that count open work (progress, the navigation's count, the loads that pick a replacement
judge, the round-1 overview) count the planned slots too; lists of assignment rows show those written.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection, transaction

from annotation.models import Assignment, AssignmentTally, Item, PlannedBlock
from annotation.models.items import JUDGEABLE

# AssignmentTally status of the slots a plan stored in blocks and not written yet.
PLANNED = "planned"
# Pending units a dry queue gets written before the claim tries again: one per tab claiming at once, so
# a second tab does not lose the race for a single unit and come back empty while blocks still wait.
CLAIMS_AT_ONCE = 8
# pg_advisory_xact_lock(namespace, project): one writer of a project's blocks at a time.
LOCK_NAMESPACE = 0x6A75


def planned_blocks_wanted(slots: int) -> bool:
    """Is a plan of `slots` new assignments stored in blocks rather than written at once?"""
    return connection.vendor == "postgresql" and slots >= settings.GOTONG_PLAN_BLOCKS_FROM


def planned_blocks_save(
    *, project_id: int, kind: str, round_: int, first_position: int, item_ids: Sequence[int], user_ids: Sequence[int]
) -> int:
    """Store a plan's slots (slot i: item_ids[i] for user_ids[i] at first_position + i) in blocks of
    whole units and count them as planned in the judges' tallies; the caller's transaction commits
    them. A unit's slots must be consecutive, as the planner gives them. Returns the number of blocks."""
    size = max(1, settings.GOTONG_PLAN_BLOCK_SLOTS)
    blocks: list[PlannedBlock] = []
    start, total = 0, len(item_ids)
    while start < total:
        end = min(start + size, total)
        while end < total and item_ids[end] == item_ids[end - 1]:
            end += 1  # the rest of the unit goes with it
        blocks.append(
            PlannedBlock(
                project_id=project_id,
                kind=kind,
                round=round_,
                first_position=first_position + start,
                slots=end - start,
                item_ids=_array(item_ids[start:end]),
                user_ids=_array(user_ids[start:end]),
            )
        )
        start = end
    PlannedBlock.objects.bulk_create(blocks, batch_size=500)
    _add_planned(project_id, kind, Counter(user_ids))
    return len(blocks)


def planned_blocks_write_for(*, project_id: int, kind: str, user_id: int) -> bool:
    """Write the project's next blocks in queue order until the user has pending work (a few units, one
    for each tab they may claim from at once) or none are left: their queue ran dry. True when the user
    has pending work now, written here or by another claim that held the lock meanwhile."""
    with transaction.atomic():
        _lock(project_id)
        mine = Assignment.objects.filter(
            project_id=project_id, user_id=user_id, kind=kind, status=Assignment.Status.PENDING
        )
        while mine[:CLAIMS_AT_ONCE].count() < CLAIMS_AT_ONCE:
            block_id = (
                PlannedBlock.objects.filter(project_id=project_id, kind=kind)
                .order_by("first_position")
                .values_list("pk", flat=True)
                .first()
            )
            if block_id is None:
                return mine.exists()
            _write(project_id, kind, [block_id])
    return True


def planned_blocks_write_all(*, project_id: int, kind: str | None = None) -> int:
    """Write every waiting block of the project (of one kind, or all): before a re-plan reads the
    assignments. Returns the number of blocks written; no lock and one query when there are none."""
    blocks = PlannedBlock.objects.filter(project_id=project_id)
    if kind is not None:
        blocks = blocks.filter(kind=kind)
    if not blocks.exists():
        return 0
    written = 0
    with transaction.atomic():
        _lock(project_id)
        by_kind: dict[str, list[int]] = {}
        for pk, block_kind in blocks.order_by("first_position").values_list("pk", "kind"):
            by_kind.setdefault(block_kind, []).append(pk)
        for block_kind, ids in by_kind.items():
            _write(project_id, block_kind, ids)
            written += len(ids)
    return written


def planned_slots_per_item(*, project_id: int, kind: str) -> Counter:
    """item id -> slots planned in blocks and not written yet, for items still in judging (PostgreSQL:
    only it has blocks)."""
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT s.item_id, count(*) FROM {_table(PlannedBlock)} b, "
            "unnest(b.item_ids::bigint[]) AS s(item_id) "
            f"JOIN {_table(Item)} i ON i.id = s.item_id "
            "WHERE b.project_id = %s AND b.kind = %s AND i.status = ANY(%s) GROUP BY s.item_id",
            [project_id, kind, list(JUDGEABLE)],
        )
        return Counter(dict(cursor.fetchall()))


def _write(project_id: int, kind: str, block_ids: list[int]) -> None:
    """The blocks' slots as pending assignments, then the blocks gone and the planned tallies lowered.

    The insert's statement trigger raises the judges' pending tallies. An item no longer in judging (or
    deleted), a judge whose account was deleted, or an item whose author is now the judge, is left out,
    as a plan written at once would have lost or cancelled those rows; ON CONFLICT DO NOTHING keeps a
    row written since (the pair item/judge is unique) as it is."""
    assignment, block, item = _table(Assignment), _table(PlannedBlock), _table(Item)
    user = _table(get_user_model())
    slots = (
        f"SELECT b.round, b.first_position + s.ord - 1 AS position, s.item_id, s.user_id FROM {block} b, "
        "unnest(b.item_ids::bigint[], b.user_ids::bigint[]) WITH ORDINALITY AS s(item_id, user_id, ord) "
        "WHERE b.id = ANY(%(blocks)s)"
    )
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {assignment} (project_id, user_id, kind, round, target_item_id, target_author_id, "
            "status, position, created_at) "
            f"SELECT %(project)s, s.user_id, %(kind)s, s.round, s.item_id, i.author_id, %(pending)s, s.position, "
            f"now() FROM ({slots}) s JOIN {item} i ON i.id = s.item_id JOIN {user} u ON u.id = s.user_id "
            "WHERE i.status = ANY(%(judgeable)s) AND i.author_id IS DISTINCT FROM s.user_id "
            "ORDER BY s.position ON CONFLICT DO NOTHING",
            {
                "project": project_id,
                "kind": kind,
                "pending": Assignment.Status.PENDING.value,
                "judgeable": list(JUDGEABLE),
                "blocks": block_ids,
            },
        )
        cursor.execute(
            f"WITH gone AS (DELETE FROM {block} WHERE id = ANY(%(blocks)s) RETURNING user_ids), "
            "per_user AS (SELECT u AS user_id, count(*) AS n FROM gone, unnest(gone.user_ids::bigint[]) AS u "
            "GROUP BY u) "
            f"UPDATE {_table(AssignmentTally)} t SET n = t.n - per_user.n FROM per_user "
            "WHERE t.project_id = %(project)s AND t.kind = %(kind)s AND t.status = %(planned)s "
            "AND t.user_id = per_user.user_id",
            {"project": project_id, "kind": kind, "planned": PLANNED, "blocks": block_ids},
        )


def _add_planned(project_id: int, kind: str, per_user: Counter) -> None:
    rows = sorted(per_user.items())
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {_table(AssignmentTally)} (project_id, user_id, kind, status, n) "
            "SELECT %s, u, %s, %s, n FROM unnest(%s::bigint[], %s::bigint[]) AS t(u, n) "
            "ON CONFLICT (project_id, user_id, kind, status) DO UPDATE "
            f"SET n = {_table(AssignmentTally)}.n + EXCLUDED.n",
            [project_id, kind, PLANNED, [u for u, _ in rows], [n for _, n in rows]],
        )


def _lock(project_id: int) -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s::integer, %s::integer)", [LOCK_NAMESPACE, project_id])


def _array(ids: Sequence[int]) -> str:
    return "{" + ",".join(map(str, ids)) + "}"


def _table(model) -> str:
    return connection.ops.quote_name(model._meta.db_table)
