"""An optional part of the authoring contract: the author picks the item's unit from the project's catalog."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, ClassVar


class UnitPicking(ABC):
    """Unit picking: the author picks the item's category and concept from the project's catalog (the
    author form takes `catalog`, {category: [concept, ...]}) and the item's concept becomes the pick
    (reports, export and benchmarks read it); the authoring plan may deal out writing slots instead of
    units (ArabCulture: a topic's slots, the subtopic picked when writing).

    A capability one protocol has today (ArabCulture); a new protocol with the same need declares the same
    part (`AuthoringHooks.unit_picking`). Without it the author always writes for the planned unit.
    """

    # The payload keys naming the picked category and concept (("topic", "subtopic")); a payload naming
    # neither keeps the planned unit.
    unit_pick_keys: ClassVar[tuple[str, str]]

    # A Concept.data key marking writing slots: when a project has units with it true, the authoring plan
    # deals out only those (one item each, balanced per category) and the author picks the item's unit.
    # "": no writing slots.
    plan_slot_key: ClassVar[str] = ""

    @abstractmethod
    def unit_pickable(self, data: dict[str, Any]) -> bool:
        """Whether an author may pick this catalog unit (Concept.data); a writing slot of the plan is not."""
