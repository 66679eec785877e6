"""Adjudication: an admin overrides an item's gold decision with a note, or reverts to the computed one.

Every action is a GoldOverride row (who, when, outcome before and after, note), never edited or deleted:
the item page lists them as the audit trail. The override in force is GoldDecision.override; the gold
engine (qc.gold) saves the computed decision first and then calls `overrides_reapply`, so a recompute
keeps it.
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from annotation.errors import InvalidInput, NotAllowed
from annotation.gold import Outcome
from annotation.models import Item, Membership
from qc.gold import gold_recompute, overrides_reapply
from qc.models import GoldDecision, GoldOverride

# What an admin may set (the item's status follows, as annotation.gold.item_status says).
OVERRIDABLE = (Outcome.GOLD, Outcome.EXCLUDED, Outcome.NO_GOLD)


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
