"""Gold decisions as the core knows them: which items are decided, the outcomes, how an outcome moves an
item's status, and what a recompute reports.

The one public statement of these rules. The gold engine (qc.gold: per item, and set-based in
qc.gold_sets, which writes the same moves in SQL), the import engine's inline decisions
(annotation.importing.engine) and the admins' overrides all follow it. The decision itself is the task
type's pure `gold_decide`; the engine that loads cases and saves decisions is qc's, reached through
annotation.hooks.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db import models
from django.utils.translation import gettext_lazy as _

from annotation.models import Item

# Items in these states have been approved by QC and may be judged and decided on.
DECIDABLE = (Item.Status.APPROVED, Item.Status.JUDGED, Item.Status.GOLD, Item.Status.EXCLUDED)


class Outcome(models.TextChoices):
    """What a task type's gold_decide gives (GoldOutcome.outcome), as a GoldDecision stores it."""

    GOLD = "gold", _("Gold")
    EXCLUDED = "excluded", _("Excluded")
    PENDING = "pending", _("Pending")
    # Judged to the end of the task type's rounds without a consensus (e.g. no label chosen by 3 of 5).
    NO_GOLD = "no_gold", _("No gold")


def item_status(outcome: str) -> str:
    """The status an item takes with this outcome."""
    if outcome == Outcome.EXCLUDED:
        return Item.Status.EXCLUDED
    if outcome == Outcome.GOLD:
        # The item is in the gold set the export writes: its status says so (dashboard, item list filter).
        return Item.Status.GOLD
    if outcome == Outcome.NO_GOLD:
        return Item.Status.JUDGED  # fully judged, no label reached the bar (the reason says why)
    return Item.Status.APPROVED


def status_reason(status: str, outcome: str, reason: str) -> str:
    """The item's status_reason beside its new status: the decision's reason where it tells why the item
    is out of the gold set, else empty."""
    if status == Item.Status.EXCLUDED or outcome == Outcome.NO_GOLD:
        return reason
    return ""


@dataclass
class GoldRecompute:
    """What a recompute did: decisions per outcome, and the items that now ask for another round.

    next_rounds: item id -> the round its decision asks for, only where the item is still in an
    earlier round (item.judging_round < n), i.e. where the judging engine has a round to plan.
    """

    totals: dict[str, int] = field(default_factory=dict)
    next_rounds: dict[int, int] = field(default_factory=dict)
