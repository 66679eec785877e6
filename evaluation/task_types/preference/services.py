"""Writes of the preference task type beyond the core: a model's response becomes part of its prompt (a new
version); the paper's ten categories with prompt slots are added to a project."""

from __future__ import annotations

import logging
from typing import Any

from django.db import transaction
from django.utils import timezone

from annotation.errors import InvalidInput
from annotation.importing.records import ImportFileError
from annotation.models import Item, ItemVersion, Judgment, Project
from annotation.services.catalog import ConceptImportSummary, concepts_import
from annotation.task_types import get_task_type
from annotation.task_types.preference.demo import units_csv
from annotation.task_types.preference.importers import parse_responses
from annotation.task_types.preference.payload import MAX_RESPONSES, with_response

logger = logging.getLogger(__name__)


@transaction.atomic
def prompt_add_response(*, item_id: int, response: dict[str, Any], note: str) -> ItemVersion | None:
    """Add one response to a prompt as a new, frozen item version (every edit is a version); None when
    the same call's response is already there. The item row is locked, so two workers adding responses
    to one prompt write versions one after the other."""
    return prompt_add_responses(item_id=item_id, responses=[response], note=note)


@transaction.atomic
def prompt_add_responses(*, item_id: int, responses: list[dict[str, Any]], note: str) -> ItemVersion | None:
    """Add responses to a prompt in one new version; None when none of them was new."""
    item = Item.objects.select_for_update(of=("self",)).select_related("current_version").get(pk=item_id)
    task_type = get_task_type(item.task_type)
    current = item.current_version
    payload = current.payload if current else {}
    added = False
    for response in responses:
        grown = with_response(payload, response)
        if grown is not None:
            payload, added = grown, True
    if not added:
        return None
    payload = task_type.normalize_payload(payload)
    check = task_type.check_payload(payload, concept=None)
    if check.errors:
        logger.warning("preference.response_refused", extra={"item": item_id, "errors": check.errors})
        return None
    version = ItemVersion.objects.create(
        item=item,
        number=(current.number if current else 0) + 1,
        payload=payload,
        created_by=None,
        note=note[:300],
        submitted_at=timezone.now(),
    )
    item.current_version = version
    item.save(update_fields=["current_version", "updated_at"])
    return version


MAX_SLOTS = 500


def prompt_slots_add(*, project: Project, slots_per_category: int) -> ConceptImportSummary:
    """Add the paper's ten categories, each with `slots_per_category` prompt slots (the units writers are
    given), through the catalog import: idempotent, and categories stay editable on the catalog page."""
    if project.task_type != "preference":
        raise InvalidInput("Prompt slots are for preference projects.", field_errors={"project": ["preference."]})
    if isinstance(slots_per_category, bool) or not isinstance(slots_per_category, int):
        raise InvalidInput("Slots per category must be a whole number.", field_errors={"slots": ["Not a number."]})
    if not 1 <= slots_per_category <= MAX_SLOTS:
        raise InvalidInput(
            f"Slots per category must be between 1 and {MAX_SLOTS}.", field_errors={"slots": ["Out of range."]}
        )
    return concepts_import(project=project, data=units_csv(slots_per_category), filename="prompt-slots.csv")


@transaction.atomic
def responses_import(*, project: Project, data: bytes) -> dict[str, int]:
    """Responses made elsewhere (prompt_id, model, text) added to the project's prompts, one new version per
    prompt. All or nothing: an unknown prompt, a row without its values, a prompt already rated (a new
    response would have no ratings) or more responses than a prompt may hold refuses the whole file. A
    response whose model and text the prompt already has is skipped, so importing a file again adds nothing.
    {"rows", "added", "skipped", "prompts"}."""
    if project.task_type != "preference":
        raise InvalidInput("Responses are imported into preference projects.", field_errors={"file": ["preference."]})
    try:
        rows, problems = parse_responses(data)
    except ImportFileError as exc:
        raise InvalidInput(str(exc), field_errors={"file": [str(exc)]}) from None
    items = Item.objects.filter(project=project).select_related("current_version").order_by("pk")
    wanted = {prompt_id for _line, prompt_id, _model, _text in rows}
    by_external = {i.external_id: i for i in items.filter(external_id__in=wanted)}
    # A prompt without an external id is exported as "<slug>-<pk>" (qc.exports); its bare pk is accepted too.
    prefix = f"{project.slug}-"
    digits = {w: w.removeprefix(prefix) for w in wanted}
    # ASCII and at most 18 digits: int() takes other scripts' digits, and PostgreSQL refuses a pk past bigint.
    pks = {w: int(d) for w, d in digits.items() if d.isascii() and d.isdigit() and len(d) <= 18}
    by_pk_value = {i.pk: i for i in items.filter(pk__in=set(pks.values()), external_id="")}
    by_pk = {w: by_pk_value[pk] for w, pk in pks.items() if pk in by_pk_value}
    rated = set(
        Judgment.objects.filter(item__project=project, kind="rate").values_list("item_id", flat=True).distinct()
    )
    new: dict[int, list[dict[str, Any]]] = {}
    skipped = 0
    for line, prompt_id, model, text in rows:
        item = by_external.get(prompt_id) or by_pk.get(prompt_id)
        if item is None:
            problems.append(f"line {line}: no prompt “{prompt_id}” in this project")
            continue
        if item.pk in rated:
            problems.append(f"line {line}: prompt “{prompt_id}” already has ratings")
            continue
        payload = item.current_version.payload if item.current_version else {}
        seen = {(r.get("model", ""), r.get("text", "")) for r in payload.get("responses") or []}
        seen |= {(r["model"], r["text"]) for r in new.get(item.pk, [])}
        if (model, text) in seen:
            skipped += 1
            continue
        new.setdefault(item.pk, []).append({"model": model, "text": text, "source": "import"})
        if len(payload.get("responses") or []) + len(new[item.pk]) > MAX_RESPONSES:
            problems.append(f"line {line}: prompt “{prompt_id}” would have more than {MAX_RESPONSES} responses")
    if problems:
        raise InvalidInput(
            f"Nothing was imported: {len(problems)} problem(s) in the file.", field_errors={"file": problems[:50]}
        )
    for item_id, responses in new.items():
        prompt_add_responses(item_id=item_id, responses=responses, note=f"{len(responses)} imported response(s)")
    return {"rows": len(rows), "added": sum(len(r) for r in new.values()), "skipped": skipped, "prompts": len(new)}
