"""Judgments: a judge's answer, label or rating of someone else's approved item (any task type)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext

from annotation import hooks, limits
from annotation.aggregation.tasks import aggregation_request
from annotation.errors import IllegalTransition, NotAllowed
from annotation.models import Assignment, Item, Judgment, Membership
from annotation.services.judging import JUDGEABLE, judging_plan_item_round
from annotation.services.known_answers import checks_pause_if_failing
from annotation.services.screening import work_gate
from annotation.services.undo import change_refusal
from annotation.task_types import get_task_type, project_settings
from annotation.task_types.base import JudgingRule, JudgmentInput, TaskType


@transaction.atomic
def judgment_record(
    *, assignment_id: int, user: AbstractBaseUser, data: dict[str, Any], only_unused: bool = False
) -> Judgment:
    """Save the user's judgment for their judge assignment, recompute the item's gold decision, and plan
    the item's next round when that decision asks for one.

    data: what the task type's normalize_judgment reads (e.g. {"answer": "C", "uncertain": false, "comment": ""}).
    Submitting again updates the same judgment. Refused, with nothing changed: someone else's or a
    cancelled assignment, an item that is not approved, the user's own item, invalid input.
    only_unused (the judging page and API: "Previous / undo"): a done answer changes only while nobody has
    used it (annotation.services.undo.change_refusal), checked under the same locks at no extra query.
    """
    # Lock order everywhere: assignment, then item (both by pk), so two saves can't deadlock.
    assignment, rule = _locked_judging_assignment(assignment_id=assignment_id, user=user)
    item = _locked_judged_item(assignment, rule, user=user, only_unused=only_unused)
    clean = _clean_judgment(item, assignment, user=user, data=data)

    judgment = Judgment(
        project_id=item.project_id,
        item=item,
        user=user,
        item_author_id=item.author_id,
        kind=rule.kind,
        assignment=assignment,
        round=assignment.round,
        value=clean.value,
        flags=clean.flags,
        comment=clean.comment,
    )
    _judgment_save(judgment)

    if assignment.status != Assignment.Status.DONE:
        assignment.status = Assignment.Status.DONE
        assignment.completed_at = timezone.now()
        assignment.lease_expires_at = None
        assignment.save(update_fields=["status", "completed_at", "lease_expires_at"])

    if item.status == Item.Status.CHECK:
        # A known-answer check has no gold and no next round: it measures the judge.
        checks_pause_if_failing(project=assignment.project, user_id=user.pk)
        return judgment

    next_round = hooks.gold_recompute_locked_item(item=item, project=assignment.project).next_rounds.get(item.pk)
    if next_round is not None and next_round <= len(rule.per_round):
        judging_plan_item_round(project=assignment.project, item=item, rule=rule, round_=next_round)
    aggregation_request(project=assignment.project)
    return judgment


def _locked_judging_assignment(*, assignment_id: int, user: AbstractBaseUser) -> tuple[Assignment, JudgingRule]:
    """The user's open judge assignment, locked, with its project's judging rule; refused otherwise."""
    assignment = (
        Assignment.objects.select_for_update(of=("self",)).select_related("project").filter(pk=assignment_id).first()
    )
    if assignment is None or assignment.user_id != user.pk:
        raise NotAllowed(gettext("This assignment is not yours."))
    work_gate(project=assignment.project, user_id=user.pk)
    rule = get_task_type(assignment.project.task_type).judging_rule(project_settings(assignment.project))
    if rule is None or assignment.kind != rule.kind or assignment.target_item_id is None:
        raise IllegalTransition(gettext("This is not a judging assignment."))
    if assignment.status == Assignment.Status.CANCELLED:
        raise IllegalTransition(gettext("This assignment was cancelled; open your queue for the next one."))
    return assignment, rule


def _locked_judged_item(
    assignment: Assignment, rule: JudgingRule, *, user: AbstractBaseUser, only_unused: bool
) -> Item:
    """The assignment's item, locked, if the user may judge it now; refused otherwise."""
    # The item's row lock also makes the next round's plan happen once (see judging_plan_item_round).
    # With its current version: the gold recompute decides on its payload (and needs no second read).
    item = (
        Item.objects.select_for_update(of=("self",)).select_related("current_version").get(pk=assignment.target_item_id)
    )
    if only_unused and (refusal := _change_refusal(assignment, item)):
        raise IllegalTransition(refusal)
    if item.author_id is not None and item.author_id == user.pk:
        raise NotAllowed(gettext("You can't %(verb)s your own item.") % {"verb": rule.verb})
    if item.status not in JUDGEABLE and item.status != Item.Status.CHECK:
        raise IllegalTransition(
            gettext("Only approved items can be %(verb_past)s; this one is %(get_status_display)s.")
            % {"verb_past": rule.verb_past, "get_status_display": item.get_status_display().lower()}
        )
    return item


def _clean_judgment(
    item: Item, assignment: Assignment, *, user: AbstractBaseUser, data: dict[str, Any]
) -> JudgmentInput:
    """The judgment as the task type normalizes (and, for some, completes against the item) it."""
    task_type = get_task_type(item.task_type)
    clean = task_type.normalize_judgment(data)
    if type(task_type).complete_judgment is not TaskType.complete_judgment:
        # Only a task type that checks judgments against the item pays for these two reads.
        group = (
            Membership.objects.filter(project_id=item.project_id, user_id=user.pk)
            .values_list("group", flat=True)
            .first()
        )
        clean = task_type.complete_judgment(
            clean,
            judge_id=user.pk,
            judge_group=group or "",
            seed=assignment.project.plan_seed,
            item_id=item.pk,
            payload=item.current_version.payload if item.current_version_id else {},
        )
    limits.check_text(clean.comment, field="comment", max_length=limits.COMMENT)
    return clean


def judgment_change(*, assignment_id: int, user: AbstractBaseUser, data: dict[str, Any]) -> Judgment:
    """Record a judgment from the judging page or the API: a first answer, or a change of a done one while
    it is unused (annotation.services.undo.change_refusal; refused with IllegalTransition and nothing
    changed otherwise)."""
    return judgment_record(assignment_id=assignment_id, user=user, data=data, only_unused=True)


# What a second save of the same (item, user, kind) changes; the rest stays as first saved.
_RESAVED = ("assignment", "round", "value", "flags", "comment", "updated_at")


def _judgment_save(judgment: Judgment) -> None:
    """Insert the judgment, or update the user's earlier one of the item (unique item, user, kind).

    On PostgreSQL one upsert returning the row's id and first save time, where reading the earlier one
    and then saving took two round trips on every submit."""
    if connection.vendor != "postgresql":
        earlier = (
            Judgment.objects.filter(item_id=judgment.item_id, user_id=judgment.user_id, kind=judgment.kind)
            .values_list("pk", "created_at")
            .first()
        )
        if earlier is not None:
            judgment.pk, judgment.created_at = earlier
            judgment._state.adding = False
            judgment.save(update_fields=_RESAVED)
        else:
            judgment.save()
        return
    meta = Judgment._meta
    quote = connection.ops.quote_name
    fields = [f for f in meta.concrete_fields if not f.primary_key]
    values = [f.get_db_prep_save(f.pre_save(judgment, add=True), connection) for f in fields]
    columns = [quote(f.column) for f in fields]
    resaved = [quote(meta.get_field(f).column) for f in _RESAVED]
    updates = ", ".join(f"{c} = EXCLUDED.{c}" for c in resaved)
    unique = ", ".join(quote(meta.get_field(f).column) for f in ("item", "user", "kind"))
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {quote(meta.db_table)} ({', '.join(columns)}) VALUES ({', '.join(['%s'] * len(values))}) "
            f"ON CONFLICT ({unique}) DO UPDATE SET {updates} RETURNING {quote(meta.pk.column)}, "
            f"{quote(meta.get_field('created_at').column)}",
            values,
        )
        judgment.pk, judgment.created_at = cursor.fetchone()
    judgment._state.adding = False


def _change_refusal(assignment: Assignment, item: Item) -> str:
    return change_refusal(
        status=assignment.status,
        completed_at=assignment.completed_at,
        round_=assignment.round,
        item_status=item.status,
        item_round=item.judging_round,
        now=timezone.now(),
    )
