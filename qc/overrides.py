"""Adjudication: an admin overrides an item's gold decision with a note, or reverts to the computed one.

Every action is a GoldOverride row (who, when, outcome before and after, note), never edited or deleted:
the item page lists them as the audit trail. The override in force is GoldDecision.override; the gold
engines save the computed decision first and then call `overrides_reapply`, so a recompute keeps it.
Overrides are set by hand, so they are few: reapplying them costs one query when there are none.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from annotation.errors import InvalidInput, NotAllowed
from annotation.models import Item, Membership
from qc.models import GoldDecision, GoldOverride

# What an admin may set, and the item status each outcome gives (as qc.gold._item_status does).
STATUS_OF = {
    GoldDecision.Outcome.GOLD: Item.Status.GOLD,
    GoldDecision.Outcome.EXCLUDED: Item.Status.EXCLUDED,
    GoldDecision.Outcome.NO_GOLD: Item.Status.JUDGED,
}
OVERRIDABLE = tuple(STATUS_OF)


def overrides_reapply(*, item_ids: Iterable[int] | None = None, project_id: int | None = None) -> list[int]:
    """Put the overrides in force back on the decisions and items of the given items (or project).

    Returns the ids of the overridden items. Called by the gold engines after every save.
    """
    from annotation.services.judging import ids_in  # services load after qc.models

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
    for item_id, outcome, reason, after, note, status, status_reason in rows:
        if (outcome, reason) != (after, note):
            decision_moves[(after, note)].append(item_id)
        new_status = STATUS_OF.get(after, Item.Status.APPROVED)
        new_reason = note if new_status != Item.Status.GOLD else ""
        if (status, status_reason) != (new_status, new_reason):
            item_moves[(new_status, new_reason)].append(item_id)
    for (outcome, reason), ids in decision_moves.items():
        GoldDecision.objects.filter(item_id__in=ids).update(outcome=outcome, reason=reason)
    now = timezone.now()
    for (status, reason), ids in item_moves.items():
        Item.objects.filter(pk__in=ids).update(status=status, status_reason=reason, updated_at=now)
    return [row[0] for row in rows]


def _require_admin(*, item: Item, user) -> None:
    is_admin = Membership.objects.filter(
        project_id=item.project_id, user=user, role=Membership.Role.ADMIN, is_active=True
    ).exists()
    if not is_admin:
        raise NotAllowed(_("Only a project admin can change a gold decision."))


def _locked_decision(item: Item) -> GoldDecision:
    # The item first, then its decision: the gold engines lock items (by pk) before saving decisions.
    Item.objects.select_for_update().filter(pk=item.pk).get()
    decision = GoldDecision.objects.select_for_update().filter(item=item).first()
    if decision is None:
        raise InvalidInput(_("This item has no gold decision yet: it has not been judged."))
    return decision


@transaction.atomic
def gold_override(*, item: Item, user, outcome: str, note: str) -> GoldOverride:
    """Set the item's gold outcome by hand; kept through every later recompute until reverted."""
    _require_admin(item=item, user=user)
    note = (note or "").strip()
    if outcome not in OVERRIDABLE:
        raise InvalidInput(_("Choose gold, excluded or no gold."), field_errors={"outcome": [_("Not a choice.")]})
    if not note:
        raise InvalidInput(
            _("Write a note saying why the decision is overridden."),
            field_errors={"note": [_("This field is required.")]},
        )
    decision = _locked_decision(item)
    if decision.outcome == outcome and decision.override_id is not None:
        raise InvalidInput(_("The decision is already overridden to this outcome."))
    row = GoldOverride.objects.create(
        item=item,
        user=user,
        action=GoldOverride.Action.OVERRIDE,
        outcome_before=decision.outcome,
        outcome_after=outcome,
        note=note,
    )
    GoldDecision.objects.filter(pk=decision.pk).update(override=row)
    overrides_reapply(item_ids=[item.pk])
    return row


@transaction.atomic
def gold_override_revert(*, item: Item, user, note: str = "") -> GoldOverride:
    """Drop the override in force: the item gets its computed decision back (recomputed now)."""
    from qc.gold import gold_recompute

    _require_admin(item=item, user=user)
    decision = _locked_decision(item)
    if decision.override_id is None:
        raise InvalidInput(_("This decision is not overridden: there is nothing to revert."))
    before = decision.outcome
    GoldDecision.objects.filter(pk=decision.pk).update(override=None)
    gold_recompute(item_ids=[item.pk])
    after = GoldDecision.objects.filter(pk=decision.pk).values_list("outcome", flat=True).get()
    return GoldOverride.objects.create(
        item=item,
        user=user,
        action=GoldOverride.Action.REVERT,
        outcome_before=before,
        outcome_after=after,
        note=(note or "").strip(),
    )
