"""An optional part of the authoring contract: units that carry their own data, written several items at a time."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:
    from annotation.importing.concepts import ParseResult


class UnitAuthoring(ABC):
    """Unit authoring: the catalog's units carry attributes read from the task type's own file (a premise),
    and an author writes all of a unit's items on one form (six hypotheses), beside a panel summarising
    the author's own items.

    A capability one protocol has today (IndoNLI); a new protocol with the same need declares the same part
    (`AuthoringHooks.unit_authoring`). Without it the catalog is the core's categories x concepts file,
    the author form holds one item (form_initial / payload_from_form) and no panel is shown.
    """

    # The catalog import page's description of the unit file units_parse reads.
    units_help: ClassVar[str]

    @abstractmethod
    def units_parse(
        self, text: str, fmt: str, *, settings: dict[str, Any], existing: list[tuple[str, str, dict[str, Any]]]
    ) -> ParseResult | None:
        """Parse a catalog import file into units with their Concept.data, or None for the core's
        categories x concepts format. `existing` holds the project's units as (category, name, data)."""

    @abstractmethod
    def unit_form_initial(self, payloads: list[dict[str, Any]]) -> dict[str, Any]:
        """The author form's initial data from the unit's current payloads (slot order; {} for a new one)."""

    @abstractmethod
    def unit_payloads_from_form(self, cleaned_data: dict[str, Any]) -> list[dict[str, Any]]:
        """The payloads of one unit's items in slot order (items_per_unit of them) from the author form."""

    # Template (under templates/) of a panel beside the author form summarising the author's own items
    # (e.g. how their phenomenon tags are spread); "" for none. Its context is `author_summary(...)`.
    author_summary_template: ClassVar[str] = ""

    def author_summary(self, payloads: list[dict[str, Any]], settings: dict[str, Any]) -> dict[str, Any]:
        """What the author-summary panel shows, from the current payloads of the author's items."""
        return {}
