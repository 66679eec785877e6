"""ArabCulture's unit picking: the plan deals out writing slots of a topic, and the author picks the topic
and subtopic of each item from the project's list (the slot's topic preset)."""

from __future__ import annotations

from typing import Any

from annotation.task_types.contract.unit_picking import UnitPicking
from annotation.task_types.sentence_completion import catalog


class CompletionUnitPicking(UnitPicking):
    unit_pick_keys = ("topic", "subtopic")
    plan_slot_key = "slot"  # catalog.SLOT

    def unit_pickable(self, data: dict[str, Any]) -> bool:
        return not catalog.is_slot(data)
