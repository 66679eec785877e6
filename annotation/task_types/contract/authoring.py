"""The authoring part of the task-type contract: the payload an author writes, its form and its checks."""

from __future__ import annotations

from typing import Any, ClassVar

from annotation.task_types.contract.marks import required
from annotation.task_types.contract.unit_authoring import UnitAuthoring
from annotation.task_types.contract.unit_picking import UnitPicking
from annotation.task_types.contract.unit_variants import UnitVariants
from annotation.task_types.records import FieldChange, PayloadCheck


class AuthoringHooks:
    """Authoring: the payload an author writes for a catalog unit (its canonical shape, its checks, its
    history and its one-line summary), the author form and its templates, the units of the catalog and
    whether QC reviews what is submitted.

    A task type must give: `author_template`, `display_template`, `normalize_payload`, `check_payload`,
    `form_class`, `form_initial`, `payload_from_form`, `diff`, `summary`. The rest defaults to one item
    per unit, written for the planned unit, reviewed by QC.
    """

    # Templates (paths under templates/, or under template_dir) for the authoring form and the read-only
    # item view.
    author_template: ClassVar[str]
    display_template: ClassVar[str]

    @required
    def normalize_payload(self, data: dict[str, Any]) -> dict[str, Any]:
        """Shape raw input (form or API) into the canonical payload, without judging it."""
        raise NotImplementedError

    @required
    def check_payload(self, payload: dict[str, Any], *, concept: str | None) -> PayloadCheck:
        raise NotImplementedError

    @required
    def form_class(self) -> type:
        raise NotImplementedError

    @required
    def form_initial(self, payload: dict[str, Any]) -> dict[str, Any]:
        raise NotImplementedError

    @required
    def payload_from_form(self, cleaned_data: dict[str, Any]) -> dict[str, Any]:
        raise NotImplementedError

    @required
    def diff(self, old: dict[str, Any] | None, new: dict[str, Any]) -> list[FieldChange]:
        raise NotImplementedError

    @required
    def summary(self, payload: dict[str, Any]) -> str:
        raise NotImplementedError

    # Items an author writes per unit (one authoring assignment): one question, or six hypotheses per
    # premise (Item.slot 0..5).
    items_per_unit: ClassVar[int] = 1
    # Authors per unit for a new project that does not say (Project.authors_per_concept).
    authors_per_unit_default: ClassVar[int] = 2

    # Units carrying the task type's own data, all of a unit's items written on one form (IndoNLI's premise
    # and six hypotheses); None: categories x concepts, one item per author form (form_initial,
    # payload_from_form).
    unit_authoring: ClassVar[UnitAuthoring | None] = None

    # The author picks the item's unit from the project's catalog, the plan may deal out writing slots
    # (ArabCulture's topics and subtopics); None: the author always writes for the planned unit.
    unit_picking: ClassVar[UnitPicking | None] = None

    # An author writes variants of the unit's other items, shown them on the form (KALAHI's base prompts);
    # None: the author form is given nothing about the unit's other items.
    unit_variants: ClassVar[UnitVariants | None] = None

    def check_unit(
        self,
        payloads: list[dict[str, Any]],
        *,
        concept: str | None,
        unit_data: dict[str, Any],
        settings: dict[str, Any],
    ) -> PayloadCheck:
        """Checks over all of a unit's items at once (e.g. two hypotheses per label, all distinct), keyed
        by form field."""
        return self.check_payload(payloads[0], concept=concept)

    def review_required(self, settings: dict[str, Any]) -> bool:
        """Whether submitted items wait for QC review; when False, a submitted item is approved at once."""
        return True
