"""The gold engine: load each item's case, let its task type decide, save the decision in bulk.

The decision itself is the task type's pure `gold_decide(GoldCase) -> GoldOutcome`; this module only
builds the cases from rows (judgments in the project's annotator order, for tie-breaks), saves one
GoldDecision per item, moves the item's status as annotation.gold says, and puts the admins' overrides
back on top. It also reports which items now ask for another judging round, so the judging engine
(annotation.services.judging) can plan it; the core reaches it through annotation.hooks (qc.apps
registers it).
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, NamedTuple

from django.db import connection, transaction
from django.db.models import TextField
from django.db.models.functions import Cast
from django.utils import timezone

from annotation import adaptive
from annotation.aggregation.store import annotator_abilities
from annotation.annotators import annotator_ranks, project_annotators, rank_of
from annotation.batching import batched, fewer_gc_passes
from annotation.foreign_keys import triggers_off_for_locked_parents
from annotation.gold import DECIDABLE, GoldRecompute, item_status, status_reason
from annotation.importing.bulkwrite import SharedJson, copy_text
from annotation.models import Item, Judgment, Project
from annotation.services.judging import ids_in
from annotation.task_types import get_task_type, project_settings
from annotation.task_types.base import GoldCase, JudgmentRow, TaskType
from annotation.task_types.memo import GoldMemo
from qc.gold_sets import gold_recompute_project_sets, set_based_applies
from qc.models import GoldDecision

# From this many decisions in a batch, PostgreSQL saves them through COPY into a staging table (see
# _save_by_copy); fewer (a single judgment's recompute) keep the plain upsert and create no table.
COPY_FROM = 200
_SAVED_FIELDS = ("policy", "outcome", "reason", "details", "judgment_ids", "computed_at")


@dataclass(frozen=True)
class _ProjectContext:
    task_type: TaskType
    settings: dict[str, Any]
    kind: str | None  # the judges' Judgment.kind (None: the task type has no judging rule)
    ranks: dict[int, int]
    memo: GoldMemo
    _keys: dict[int, tuple[int, int]] = field(default_factory=dict)

    def user_rank(self, user_id: int) -> tuple[int, int]:
        # The sort key of a judge (annotator order), looked up once per judge rather than per judgment.
        key = self._keys.get(user_id)
        if key is None:
            key = self._keys[user_id] = rank_of(self.ranks, user_id)
        return key


@lru_cache(maxsize=4096)
def _decoded(text: str | None) -> dict[str, Any]:
    # Few distinct values and flag sets across many judgments: decode each once. The dicts are shared,
    # so task types must treat JudgmentRow.value and .flags as read-only.
    return json.loads(text) if text else {}


def _contexts(project_ids: set[int]) -> dict[int, _ProjectContext]:
    annotators = project_annotators(project_ids=project_ids)
    return {
        project.pk: _context(project, annotators.get(project.pk, []))
        for project in Project.objects.filter(pk__in=project_ids).only("pk", "task_type", "settings")
    }


def _context(project: Project, annotators: list) -> _ProjectContext:
    task_type = get_task_type(project.task_type)
    task_settings = project_settings(project)
    rule = task_type.judging_rule(task_settings)
    # Adaptive judging weighs each judge by their accuracy in the aggregation model's last fit (one
    # query, only for adaptive projects; judges the fit does not know get adaptive.DEFAULT_ACCURACY).
    accuracy = (
        {user_id: a.ability for user_id, a in annotator_abilities(project=project).items()}
        if adaptive.is_adaptive(task_settings)
        else {}
    )
    return _ProjectContext(
        task_type=task_type,
        settings=task_settings,
        kind=rule.kind if rule is not None else None,
        ranks=annotator_ranks(annotators),
        memo=GoldMemo(task_type, accuracy=accuracy),
    )


@transaction.atomic
def gold_recompute_outcomes(*, item_ids: Iterable[int], batch_size: int = 2000) -> GoldRecompute:
    """Recompute and save the gold decision of the given items (see GoldRecompute for the result).

    Items not yet approved are skipped. Each batch locks its items (ordered by pk, like every other
    multi-row lock) so a concurrent judgment of the same item waits instead of racing the decision.
    """
    result = GoldRecompute(totals=defaultdict(int))
    context: dict[int, _ProjectContext] = {}
    with fewer_gc_passes():
        for batch in batched(sorted(set(item_ids)), batch_size):
            _recompute_batch(batch, context, result)
    result.totals = dict(result.totals)
    return result


def gold_recompute_locked_item(*, item: Item, project: Project) -> GoldRecompute:
    """gold_recompute_outcomes of one item for a caller whose transaction already holds the item's row lock
    (judgment_record): the item's row as loaded (with its current version), the project as loaded.

    Spares the per-judgment path a savepoint, a second read and lock of the item and a read of the
    project; the item must be decidable (DECIDABLE), as judgment_record has checked.
    """
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("gold_recompute_locked_item needs the caller's transaction holding the item's lock.")
    result = GoldRecompute(totals=defaultdict(int))
    context = {project.pk: _context(project, project_annotators(project_ids=[project.pk]).get(project.pk, []))}
    payload = item.current_version.payload if item.current_version_id else {}
    row = (item.pk, item.project_id, item.status, item.status_reason, item.judging_round, payload)
    _decide_and_save([row], context, result)
    result.totals = dict(result.totals)
    return result


def _recompute_batch(batch: tuple[int, ...], context: dict[int, _ProjectContext], result: GoldRecompute) -> None:
    """Decide and save one batch; the batch's items are locked (ordered by pk) until the transaction ends."""
    items = list(
        Item.objects.select_for_update(of=("self",))
        .filter(pk__in=ids_in(batch), status__in=DECIDABLE)
        .order_by("pk")
        .values_list(
            "pk",
            "project_id",
            "status",
            "status_reason",
            "judging_round",
            Cast("current_version__payload", TextField()),
        )
    )
    if not items:
        return
    missing = {project_id for _, project_id, *_ in items} - set(context)
    if missing:
        context.update(_contexts(missing))
    _decide_and_save(items, context, result)


def _decide_and_save(items: list[tuple], context: dict[int, _ProjectContext], result: GoldRecompute) -> None:
    """items: (pk, project_id, status, status_reason, judging_round, payload as JSON text or a dict), each
    locked by this transaction; every project's context is in `context`."""
    by_item: dict[int, list[tuple]] = defaultdict(list)
    # Values and flags as text, decoded once per distinct text: 500,000 judgments hold few of them.
    for jid, item_id, user_id, kind, round_, value, flags in (
        Judgment.objects.filter(item_id__in=ids_in([i[0] for i in items]))
        .values_list(
            "pk", "item_id", "user_id", "kind", "round", Cast("value", TextField()), Cast("flags", TextField())
        )
        .order_by()
    ):
        by_item[item_id].append((jid, user_id, kind, round_, value, flags))

    decisions, status_changes = [], defaultdict(list)
    # (status, outcome, reason) -> (new status, new reason): few distinct triples among many items.
    moves: dict[tuple[str, str, str], tuple[str, str]] = {}
    for item_id, project_id, status, current_reason, judging_round, payload in items:
        ctx = context[project_id]
        kind = ctx.kind
        rows = [r for r in by_item.get(item_id, ()) if kind is None or r[2] == kind]
        if len(rows) > 1:
            rows.sort(key=lambda r: ctx.user_rank(r[1]))
        judgments = tuple(
            JudgmentRow(jid, user_id, round_, _decoded(value), _decoded(flags))
            for jid, user_id, _, round_, value, flags in rows
        )
        if isinstance(payload, str):
            payload = json.loads(payload)
        outcome = ctx.memo.decide(GoldCase(payload or {}, judgments, ctx.settings, judging_round))
        result.totals[outcome.outcome] += 1
        if outcome.next_round is not None and judging_round < outcome.next_round:
            result.next_rounds[item_id] = outcome.next_round
        decisions.append(
            _Decision(
                item_id,
                ctx.task_type.gold_policy,
                outcome.outcome,
                outcome.reason,
                outcome.details,
                [r[0] for r in rows],
            )
        )
        move_key = (status, outcome.outcome, outcome.reason)
        move = moves.get(move_key)
        if move is None:
            new_status = item_status(outcome.outcome)
            move = moves[move_key] = (new_status, status_reason(new_status, outcome.outcome, outcome.reason))
        if move != (status, current_reason):
            status_changes[move].append(item_id)
    overridden = _save_decisions(decisions)
    now = timezone.now()
    for (new_status, new_reason), ids in status_changes.items():
        Item.objects.filter(pk__in=ids_in(ids)).update(status=new_status, status_reason=new_reason, updated_at=now)
    # An admin's override outlives the recompute: its outcome goes back on the decision and the item.
    if overridden is None or overridden:
        for item_id in overrides_reapply(item_ids=[i[0] for i in items] if overridden is None else overridden):
            result.next_rounds.pop(item_id, None)


class _Decision(NamedTuple):
    # One GoldDecision row to save; a plain tuple, as 120,000 model instances cost ~1.7 s to build.
    item_id: int
    policy: str
    outcome: str
    reason: str
    details: dict[str, Any]
    judgment_ids: list[int]


def _save_decisions(decisions: list[_Decision]) -> list[int] | None:
    """Insert or update one GoldDecision per item (item is unique). Returns the items whose decision has an
    override in force, when the save tells (None: not known, look)."""
    if connection.vendor != "postgresql":
        GoldDecision.objects.bulk_create(
            [GoldDecision(**d._asdict()) for d in decisions],
            update_conflicts=True,
            unique_fields=["item"],
            update_fields=list(_SAVED_FIELDS),
        )
        return None
    if len(decisions) >= COPY_FROM:
        _save_by_copy(decisions)
        return None
    return _save_by_upsert(decisions)


def _save_by_upsert(decisions: list[_Decision]) -> list[int]:
    """bulk_create's upsert written out, to return each saved row's override: the per-judgment recompute
    then needs no read of the overrides when none is in force (nearly always). The row's override is
    current: the decision row is locked by the upsert, and overrides are set under the item's lock,
    which this transaction holds (_recompute_batch, judgment_record)."""
    meta = GoldDecision._meta
    quote = connection.ops.quote_name
    columns = [quote(meta.get_field(f).column) for f in ("item", *_SAVED_FIELDS)]
    now = timezone.now()
    row = "(%s, %s, %s, %s, %s::jsonb, %s::jsonb, %s)"
    params: list[Any] = []
    for d in decisions:
        params += [d.item_id, d.policy, d.outcome, d.reason, json.dumps(d.details), json.dumps(d.judgment_ids), now]
    updates = ", ".join(f"{c} = EXCLUDED.{c}" for c in columns[1:])
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {quote(meta.db_table)} ({', '.join(columns)}) VALUES {', '.join([row] * len(decisions))} "
            f"ON CONFLICT ({columns[0]}) DO UPDATE SET {updates} "
            f"RETURNING {columns[0]}, {quote(meta.get_field('override').column)}",
            params,
        )
        return sorted(item_id for item_id, override_id in cursor.fetchall() if override_id is not None)


def _save_by_copy(decisions: list[_Decision]) -> None:
    """The upsert as COPY into a temporary table, then one INSERT ... ON CONFLICT from it.

    bulk_create's upsert sends UNNEST arrays that psycopg builds value by value on the client: measured
    at 120,000 decisions (bench/nli_rounds.py), saving took half of a 18 s recompute. The JSON is
    serialised here once per row and the text goes as is. The table lives until the transaction ends
    (the recompute is atomic) and is emptied after each batch.
    """
    meta = GoldDecision._meta
    quote = connection.ops.quote_name
    table = quote(meta.db_table)
    columns = [quote(meta.get_field(f).column) for f in ("item", *_SAVED_FIELDS)]
    listed = ", ".join(columns)
    now = timezone.now().isoformat()
    # Policy, outcome and reason repeat (decisions of equal cases share their outcome, see
    # GoldMemo): each text is escaped once, each shared details dict encoded once.
    texts: dict[str, str] = {}
    details = SharedJson()

    def text(value: str) -> str:
        escaped = texts.get(value)
        if escaped is None:
            escaped = texts[value] = copy_text(value)
        return escaped

    lines = "".join(
        f"{d.item_id}\t{text(d.policy)}\t{text(d.outcome)}\t{text(d.reason)}\t"
        f"{details(d.details)}\t[{', '.join(map(str, d.judgment_ids))}]\t{now}\n"
        for d in decisions
    )
    with connection.cursor() as cursor:
        cursor.execute(
            "CREATE TEMPORARY TABLE IF NOT EXISTS gold_decision_stage (item_id bigint, policy text, outcome text, "
            "reason text, details jsonb, judgment_ids jsonb, computed_at timestamptz) ON COMMIT DROP"
        )
        with cursor.copy("COPY gold_decision_stage FROM STDIN") as copy:
            copy.write(lines)
        updates = ", ".join(f"{c} = EXCLUDED.{c}" for c in columns[1:])
        # Every decision is of an item this transaction holds FOR UPDATE (_recompute_batch).
        with triggers_off_for_locked_parents():
            cursor.execute(
                f"INSERT INTO {table} ({listed}) SELECT * FROM gold_decision_stage ORDER BY item_id "
                f"ON CONFLICT ({columns[0]}) DO UPDATE SET {updates}"
            )
        cursor.execute("TRUNCATE gold_decision_stage")


def overrides_reapply(*, item_ids: Iterable[int] | None = None, project_id: int | None = None) -> list[int]:
    """Put the overrides in force back on the decisions and items of the given items (or project).

    Returns the ids of the overridden items. Called after every save of computed decisions, so an
    admin's override (qc.overrides) outlives a recompute. Overrides are set by hand, so they are few:
    this costs one query when there are none.
    """
    decisions = GoldDecision.objects.filter(override__isnull=False)
    if item_ids is not None:
        decisions = decisions.filter(item_id__in=ids_in(list(item_ids)))
    else:
        decisions = decisions.filter(item__project_id=project_id)
    rows = list(
        decisions.values_list(
            "item_id",
            "outcome",
            "reason",
            "override__outcome_after",
            "override__note",
            "item__status",
            "item__status_reason",
        ).order_by("item_id")
    )
    if not rows:
        return []
    decision_moves: dict[tuple[str, str], list[int]] = defaultdict(list)
    item_moves: dict[tuple[str, str], list[int]] = defaultdict(list)
    for item_id, outcome, reason, after, note, status, current_reason in rows:
        if (outcome, reason) != (after, note):
            decision_moves[(after, note)].append(item_id)
        new_status = item_status(after)
        new_reason = note if new_status != Item.Status.GOLD else ""
        if (status, current_reason) != (new_status, new_reason):
            item_moves[(new_status, new_reason)].append(item_id)
    for (outcome, reason), ids in decision_moves.items():
        GoldDecision.objects.filter(item_id__in=ids).update(outcome=outcome, reason=reason)
    now = timezone.now()
    for (status, reason), ids in item_moves.items():
        Item.objects.filter(pk__in=ids).update(status=status, status_reason=reason, updated_at=now)
    return [row[0] for row in rows]


def gold_recompute(*, item_ids: Iterable[int], batch_size: int = 2000) -> dict[str, int]:
    """Recompute and save the gold decision of the given items; return how many got each outcome."""
    return gold_recompute_outcomes(item_ids=item_ids, batch_size=batch_size).totals


def gold_recompute_for_rounds(*, project: Project, item_ids: list[int]) -> GoldRecompute:
    """The decisions the bulk round planner needs (which items ask for which round), saved: the items'
    project recomputed set-based where the task type allows it (each distinct case decided once: IndoNLI's
    120,000 pairs in round 1 are a few hundred cases), else the items one by one. The caller holds the
    project's lock; an overridden item asks for no round."""
    if not set_based_applies(project):
        return gold_recompute_outcomes(item_ids=item_ids)
    return _recompute_project_set_based(project)


@transaction.atomic
def _recompute_project_set_based(project: Project) -> GoldRecompute:
    """The project's decisions set-based (qc.gold_sets), then its overrides put back in force: an
    overridden item asks for no round."""
    context = _contexts({project.pk})[project.pk]
    result = gold_recompute_project_sets(project=project, context=context, decidable=DECIDABLE)
    for item_id in overrides_reapply(project_id=project.pk):
        result.next_rounds.pop(item_id, None)
    return result


def gold_recompute_project(*, project: Project, batch_size: int = 2000) -> dict[str, int]:
    """Recompute every decidable item of the project; set-based on PostgreSQL where the task type
    allows it (qc.gold_sets), else item by item."""
    if set_based_applies(project):
        return _recompute_project_set_based(project).totals
    ids = Item.objects.filter(project=project, status__in=DECIDABLE).values_list("pk", flat=True).order_by("pk")
    return gold_recompute(item_ids=list(ids), batch_size=batch_size)
