"""Authoring: drafts, submission and revision. One function per transition; each locks its rows.

A unit (one authoring assignment) yields `items_per_unit` items of its task type, numbered by slot
(one for a question; six for a premise whose writer writes six hypotheses). For a one-item task
type `data` is the item's payload; otherwise it is {"items": [payload, ...]} in slot order, and all
of them are saved in one transaction.
An item that is not editable (submitted, approved, ...) keeps its payload: a resubmission after a
revision request changes only the items sent back, and a posted change to any other item is refused
with a field error before anything is saved (never dropped in silence).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from annotation import limits
from annotation.errors import IllegalTransition, InvalidInput, NotAllowed
from annotation.models import Assignment, Concept, Item, ItemVersion
from annotation.services.drafts import work_draft_clear
from annotation.services.item_language import author_default_language, items_set_language, language_checked
from annotation.services.screening import work_gate
from annotation.task_types import get_task_type, project_settings
from annotation.task_types.base import TaskType

EDITABLE = (Item.Status.DRAFT, Item.Status.REVISION_REQUESTED)


def _lock_authoring(assignment_id: int, user: AbstractBaseUser) -> tuple[Assignment, dict[int, Item]]:
    # Lock order everywhere: assignment, then items (by pk), so two saves can't deadlock.
    assignment = (
        Assignment.objects.select_for_update(of=("self",)).select_related("project", "concept").get(pk=assignment_id)
    )
    if assignment.user_id != user.pk or assignment.kind != Assignment.Kind.AUTHOR:
        raise NotAllowed(gettext("This assignment is not yours."))
    work_gate(project=assignment.project, user_id=user.pk)
    if assignment.status == Assignment.Status.CANCELLED:
        raise IllegalTransition(gettext("This assignment was cancelled; open your queue for the next one."))
    items = Item.objects.select_for_update().filter(assignment=assignment).order_by("pk")
    return assignment, {item.slot: item for item in items}


def _unit_payloads(tt: TaskType, data: dict[str, Any]) -> list[dict[str, Any]]:
    """The normalized payloads of the unit's items, in slot order."""
    if tt.items_per_unit == 1:
        return [tt.normalize_payload(data)]
    given = data.get("items") if isinstance(data, dict) else None
    if not isinstance(given, list | tuple) or len(given) != tt.items_per_unit:
        raise InvalidInput(
            gettext("Give the %(items_per_unit)s items of this unit.") % {"items_per_unit": tt.items_per_unit},
            field_errors={
                "items": [gettext("Give a list of %(items_per_unit)s items.") % {"items_per_unit": tt.items_per_unit}]
            },
        )
    payloads, errors = [], {}
    for slot, entry in enumerate(given):
        try:
            payloads.append(tt.normalize_payload(entry))
        except InvalidInput as exc:
            payloads.append({})
            for field, messages in exc.field_errors.items():
                errors[f"{field}_{slot + 1}"] = messages
    if errors:
        raise InvalidInput(gettext("The items can't be saved: check the highlighted fields."), field_errors=errors)
    return payloads


def _check_references(tt: TaskType, assignment: Assignment, items: dict[int, Item], payloads: list[dict]) -> None:
    """Refuse, before anything is saved, a payload naming another item of the unit that the unit does not
    hold (only task types whose authors write variants of the unit's items: unit_variants)."""
    if tt.unit_variants is None:
        return
    from annotation.selectors import unit_items_besides

    current = [item.current_version.payload for item in items.values() if item.current_version is not None]
    errors = tt.unit_variants.unit_reference_errors(
        payloads, unit_items=unit_items_besides(assignment=assignment), current=current, assignment=assignment
    )
    if errors:
        raise InvalidInput(next(iter(errors.values()))[0], field_errors=errors)


def _picked_units(
    tt: TaskType, assignment: Assignment, items: dict[int, Item], payloads: list[dict[str, Any]], *, submit: bool
) -> tuple[list[Concept | None], dict[str, list[str]]]:
    """The concept each payload picks from the project's catalog (task types with `unit_picking`;
    None where the payload names neither, so the item keeps its unit), and the errors of the picks.
    A submission must pick one when its unit can't be picked (a writing slot of the plan)."""
    picking = tt.unit_picking
    if picking is None:
        return [None] * len(payloads), {}
    category_key, concept_key = picking.unit_pick_keys
    picked: list[Concept | None] = []
    errors: dict[str, list[str]] = {}
    for slot, payload in enumerate(payloads):
        suffix = "" if len(payloads) == 1 else f"_{slot + 1}"
        category, name = str(payload.get(category_key) or ""), str(payload.get(concept_key) or "")
        concept = None
        if not category and not name:
            current = items[slot].concept if slot in items and items[slot].concept_id else assignment.concept
            if submit and current is not None and not picking.unit_pickable(current.data or {}):
                errors[category_key + suffix] = [
                    gettext("Choose a %(category_key)s and a %(concept_key)s from the project's list.")
                    % {"category_key": category_key, "concept_key": concept_key}
                ]
            picked.append(None)
            continue
        if not category:
            errors[category_key + suffix] = [gettext("Choose a %(category_key)s.") % {"category_key": category_key}]
        elif not assignment.project.categories.filter(name=category).exists():
            errors[category_key + suffix] = [
                gettext("“%(category)s” is not a %(category_key)s of this project.")
                % {"category": category, "category_key": category_key}
            ]
        elif not name:
            errors[concept_key + suffix] = [
                gettext("Choose a %(concept_key)s of “%(category)s”.")
                % {"concept_key": concept_key, "category": category}
            ]
        else:
            concept = Concept.objects.filter(project=assignment.project, category__name=category, name=name).first()
            if concept is None or not picking.unit_pickable(concept.data or {}):
                concept = None
                errors[concept_key + suffix] = [
                    gettext("“%(name)s” is not a %(concept_key)s of “%(category)s” in this project.")
                    % {"name": name, "concept_key": concept_key, "category": category}
                ]
        picked.append(concept)
    return picked, errors


def _set_units(items: list[Item], picked: list[Concept | None]) -> None:
    for item in items:
        concept = picked[item.slot] if item.slot < len(picked) else None
        if concept is not None and item.concept_id != concept.pk:
            item.concept = concept
            item.save(update_fields=["concept", "updated_at"])


def _not_editable(item: Item) -> IllegalTransition:
    return IllegalTransition(
        gettext(
            "This item is %(get_status_display)s; it can only be edited as a draft or when a reviewer "
            "asks for a revision."
        )
        % {"get_status_display": item.get_status_display().lower()}
    )


def _write_version(
    *, item: Item, user: AbstractBaseUser, payload: dict[str, Any], justification: str, note: str
) -> ItemVersion:
    """Update the open (unsubmitted) version in place, or start a new one after a submitted one."""
    current = item.current_version
    if current is not None and current.submitted_at is None:
        current.payload = payload
        current.justification = justification
        current.save(update_fields=["payload", "justification"])
        return current
    number = 1 if current is None else current.number + 1
    version = ItemVersion.objects.create(
        item=item, number=number, payload=payload, created_by=user, justification=justification, note=note
    )
    item.current_version = version
    item.save(update_fields=["current_version", "updated_at"])
    return version


def _editable_items(
    *, assignment: Assignment, items: dict[int, Item], user: AbstractBaseUser, count: int
) -> list[Item]:
    """The unit's items that may be written now, created for the slots that have none yet.

    Refused when every item exists and none is editable (nothing to save)."""
    existing = [items[slot] for slot in sorted(items)]
    if existing and len(existing) == count and not any(item.status in EDITABLE for item in existing):
        raise _not_editable(existing[0])
    missing = [slot for slot in range(count) if slot not in items]
    if missing:
        for slot in missing:
            items[slot] = Item.objects.create(
                project=assignment.project,
                task_type=assignment.project.task_type,
                author=user,
                concept=assignment.concept,
                assignment=assignment,
                slot=slot,
                language=author_default_language(project=assignment.project, user=user),
            )
        if assignment.status == Assignment.Status.PENDING:
            assignment.status = Assignment.Status.ACTIVE
            assignment.started_at = timezone.now()
            assignment.save(update_fields=["status", "started_at"])
    return [items[slot] for slot in range(count) if items[slot].status in EDITABLE]


def _refuse_frozen_changes(payloads: list[dict[str, Any]], items: dict[int, Item]) -> list[dict[str, Any]]:
    """The posted payloads, refused when one changes an item that can't be edited now.

    A reviewer who sends back one hypothesis of six leaves the other five approved (or still in review):
    a change to one of them used to be dropped without a word. Refusing it before anything is saved keeps
    the author's text on the page with the reason beside the field; the frozen items stay as reviewed."""
    if not any(item.status in EDITABLE for item in items.values()):
        return payloads  # nothing to write: the caller refuses the transition itself
    errors: dict[str, list[str]] = {}
    for slot, item in sorted(items.items()):
        if slot >= len(payloads) or item.status in EDITABLE or item.current_version is None:
            continue
        current = item.current_version.payload
        changed = sorted(
            key for key in set(payloads[slot]) | set(current) if payloads[slot].get(key) != current.get(key)
        )
        for key in changed:
            errors[f"{key}_{slot + 1}"] = [
                gettext(
                    "Item %(number)s is %(status)s and can't be changed here; only the items sent back can be "
                    "edited. Undo this change to save the others."
                )
                % {"number": slot + 1, "status": item.get_status_display().lower()}
            ]
    if errors:
        raise InvalidInput(
            gettext("Nothing was saved: you changed an item that is not sent back to you."), field_errors=errors
        )
    return payloads


@transaction.atomic
def unit_save_draft(
    *,
    assignment_id: int,
    user: AbstractBaseUser,
    data: dict[str, Any],
    justification: str = "",
    language: str | None = None,
) -> list[Item]:
    """Save the author's work on a unit without judging it; returns the unit's items in slot order."""
    assignment, items = _lock_authoring(assignment_id, user)
    tt = get_task_type(assignment.project.task_type)
    payloads = _refuse_frozen_changes(_unit_payloads(tt, data), items)
    _check_references(tt, assignment, items, payloads)
    picked, pick_errors = _picked_units(tt, assignment, items, payloads, submit=False)
    if pick_errors:
        raise InvalidInput(
            gettext("The item can't be saved: check the %(join)s.") % {"join": ", ".join(pick_errors)},
            field_errors=pick_errors,
        )
    justification = limits.check_text(justification.strip(), field="justification", max_length=limits.JUSTIFICATION)
    editable = _editable_items(assignment=assignment, items=items, user=user, count=len(payloads))
    for item in editable:
        note = "draft" if item.status == Item.Status.DRAFT else "revision"
        _write_version(item=item, user=user, payload=payloads[item.slot], justification=justification, note=note)
    _set_units(editable, picked)
    # None: the form offered no choice (one language), so the default given at creation stands.
    if language is not None:
        items_set_language(editable, language_checked(assignment.project, language))
    work_draft_clear(assignment_id=assignment.pk)  # the item now holds what the autosave kept
    return [items[slot] for slot in sorted(items)]


@transaction.atomic
def unit_submit(
    *,
    assignment_id: int,
    user: AbstractBaseUser,
    data: dict[str, Any],
    justification: str = "",
    language: str | None = None,
) -> list[Item]:
    """Validate the unit and submit its editable items for review (or approve them at once when the
    task type's settings switch QC review off); returns the unit's items in slot order."""
    assignment, items = _lock_authoring(assignment_id, user)
    tt = get_task_type(assignment.project.task_type)
    existing = [items[slot] for slot in sorted(items)]
    if existing and len(existing) == tt.items_per_unit and not any(i.status in EDITABLE for i in existing):
        raise IllegalTransition(
            gettext("This item is already %(get_status_display)s.")
            % {"get_status_display": existing[0].get_status_display().lower()}
        )
    settings = project_settings(assignment.project)
    payloads = _refuse_frozen_changes(_unit_payloads(tt, data), items)
    _check_references(tt, assignment, items, payloads)
    concept = assignment.concept.name if assignment.concept else None
    unit_data = assignment.concept.data if assignment.concept else {}
    check = tt.check_unit(payloads, concept=concept, unit_data=unit_data, settings=settings)
    picked, pick_errors = _picked_units(tt, assignment, items, payloads, submit=True)
    justification = limits.check_text(justification.strip(), field="justification", max_length=limits.JUSTIFICATION)
    if check.errors or pick_errors or (check.warnings and not justification):
        errors = {**check.warnings, **check.errors} if not justification else dict(check.errors)
        errors.update(pick_errors)
        raise InvalidInput(gettext("The item can't be submitted yet."), field_errors=errors)
    if not check.warnings:
        justification = ""  # kept only when it overrides a warning, so reviewers see it only then

    if language is not None:
        language = language_checked(assignment.project, language)
    now = timezone.now()
    new_status = Item.Status.SUBMITTED if tt.review_required(settings) else Item.Status.APPROVED
    for item in _editable_items(assignment=assignment, items=items, user=user, count=len(payloads)):
        if language is not None:
            items_set_language([item], language)
        note = "submitted" if item.status == Item.Status.DRAFT else "revision"
        version = _write_version(
            item=item, user=user, payload=payloads[item.slot], justification=justification, note=note
        )
        version.submitted_at = now
        version.note = note
        version.save(update_fields=["submitted_at", "note"])
        item.status = new_status
        item.save(update_fields=["status", "updated_at"])
        _set_units([item], picked)
    if assignment.status != Assignment.Status.DONE:
        assignment.status = Assignment.Status.DONE
        assignment.completed_at = now
        assignment.lease_expires_at = None
        assignment.save(update_fields=["status", "completed_at", "lease_expires_at"])
    work_draft_clear(assignment_id=assignment.pk)  # submitted: an autosaved draft must not come back over it
    return [items[slot] for slot in sorted(items)]


def item_save_draft(
    *, assignment_id: int, user: AbstractBaseUser, data: dict[str, Any], justification: str = ""
) -> Item:
    """Save a draft; returns the unit's first item (the only one for a one-item task type)."""
    return unit_save_draft(assignment_id=assignment_id, user=user, data=data, justification=justification)[0]


def item_submit(*, assignment_id: int, user: AbstractBaseUser, data: dict[str, Any], justification: str = "") -> Item:
    """Validate and submit for review (first time or after a revision request); returns the first item."""
    return unit_submit(assignment_id=assignment_id, user=user, data=data, justification=justification)[0]
