"""An optional part of the authoring contract: an author writes a variant of another item of the unit."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, Any

from annotation.task_types.records import UnitItem

if TYPE_CHECKING:
    from annotation.models import Assignment


class UnitVariants(ABC):
    """Unit variants: an author is shown the unit's other items and may write a variant of one of them (a
    payload naming it, checked on every save), an assignment may ask for a variant of one item, and a QC
    decision may ask for one (KALAHI's personal-situation variants of a base prompt).

    A capability one protocol has today (KALAHI); a new protocol with the same need declares the same part
    (`AuthoringHooks.unit_variants`). Without it the author form is given nothing about the unit's other
    items (no query for them) and nothing happens after a QC decision.
    """

    @abstractmethod
    def author_form_kwargs(self, unit_items: list[UnitItem]) -> dict[str, Any]:
        """Extra keyword arguments of form_class() on the authoring page, from the other items written
        for the same unit (submitted or later; drafts and rejected ones left out)."""

    @abstractmethod
    def author_assignment_kwargs(self, assignment: Assignment) -> dict[str, Any]:
        """Extra keyword arguments of form_class() from the authoring assignment itself (e.g. the base
        prompt a variant request names in its target_item); {} for planned authoring."""

    @abstractmethod
    def unit_reference_errors(
        self,
        payloads: list[dict[str, Any]],
        *,
        unit_items: list[UnitItem],
        current: list[dict[str, Any]],
        assignment: Assignment,
    ) -> dict[str, list[str]]:
        """Field errors for a reference to another item of the unit that the unit does not hold (e.g. a
        `prompt_id` naming no base prompt of the unit), checked on every save; `current` holds the unit's
        saved payloads (what they name stays valid)."""

    @abstractmethod
    def item_reviewed(self, *, item: Any, approved: bool, error_codes: list[str]) -> None:
        """Called inside a QC decision's transaction once the item has its new status: `approved` when the
        decision approves it, `error_codes` the decision's error types (e.g. a variant of a base prompt
        approved after an "add a situation variant" request is asked for)."""
