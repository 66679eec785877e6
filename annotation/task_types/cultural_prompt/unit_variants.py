"""KALAHI's unit variants: a writer chooses the base prompt a personal-situation variant shares, a variant
request (variants.py) preselects it, and a review asking for a variant plans one."""

from __future__ import annotations

from typing import Any

from annotation.task_types.contract.unit_variants import UnitVariants
from annotation.task_types.cultural_prompt import payload
from annotation.task_types.cultural_prompt.variants import base_id, on_review, requested_base
from annotation.task_types.records import UnitItem


class KalahiUnitVariants(UnitVariants):
    def author_form_kwargs(self, unit_items: list[UnitItem]) -> dict[str, Any]:
        return {"base_prompts": payload.base_prompts(unit_items)}

    def author_assignment_kwargs(self, assignment: Any) -> dict[str, Any]:
        # A variant request: the base prompt is preselected, its shared parts filled in.
        base = requested_base(assignment)
        if base is None:
            return {}
        parts = (base.current_version.payload or {}) if base.current_version_id else {}
        return {
            "variant_of": {
                "id": base_id(base),
                "parts": {p: parts.get(p, "") for p in ("user", "context", "instruction")},
            }
        }

    def unit_reference_errors(
        self,
        payloads: list[dict[str, Any]],
        *,
        unit_items: list[UnitItem],
        current: list[dict[str, Any]],
        assignment: Any,
    ) -> dict[str, list[str]]:
        base = requested_base(assignment)
        return payload.reference_errors(
            payloads[0],
            unit_items=unit_items,
            kept={p.get("prompt_id") for p in current if p.get("prompt_id")},
            requested=base_id(base) if base is not None else "",
        )

    def item_reviewed(self, *, item: Any, approved: bool, error_codes: list[str]) -> None:
        on_review(item=item, approved=approved, error_codes=error_codes)
