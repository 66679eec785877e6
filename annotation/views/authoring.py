"""The annotator's authoring queue and form."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_http_methods
from django_htmx.http import HttpResponseClientRedirect

from annotation.errors import DomainError, InvalidInput
from annotation.forms import apply_domain_error
from annotation.forms.work import SkipForm, restore_draft
from annotation.models import Assignment, Item
from annotation.selectors import (
    assignment_current,
    assignment_for_user,
    author_payloads,
    author_progress,
    membership_for,
    payload_as_seen,
    unit_catalog,
    unit_items_besides,
)
from annotation.selectors.revisions import revision_assignment_next
from annotation.services.assignments import assignment_claim_next
from annotation.services.drafts import work_draft_for
from annotation.services.item_language import author_default_language, project_languages
from annotation.services.items import EDITABLE, unit_save_draft, unit_submit
from annotation.task_types import get_task_type, project_settings
from annotation.views.common import (
    AUTHOR_ROLES,
    SAVED,
    content_direction,
    page_language,
    posted,
    project_context,
    revisions_for,
)
from annotation.views.screening import gate_response

AUTHOR = Assignment.Kind.AUTHOR
SHOW_REVIEW = (Item.Status.REVISION_REQUESTED, Item.Status.REJECTED)


@login_required
@require_GET
def author_queue(request: HttpRequest, slug: str) -> HttpResponse:
    membership = membership_for(user=request.user, slug=slug, roles=AUTHOR_ROLES)
    if (refused := gate_response(request, membership)) is not None:
        return refused
    project = membership.project
    # Work a reviewer sent back comes before anything new (the oldest request first): it waits on its writer
    # alone, and is nearly done.
    sent_back = revision_assignment_next(project=project, user=request.user)
    assignment_id = sent_back
    if assignment_id is None:
        assignment = assignment_current(project=project, user=request.user, kind=AUTHOR) or assignment_claim_next(
            project=project, user=request.user, kind=AUTHOR
        )
        assignment_id = assignment.pk if assignment is not None else None
    just_saved = "saved" in request.GET
    if assignment_id is not None:
        if just_saved:
            messages.success(request, gettext("Submitted for review. Here is your next one."))
        return redirect("author_item", slug=slug, assignment_id=assignment_id)
    progress = author_progress(project=project, user=request.user)
    context = project_context(
        membership,
        progress=progress,
        done=sum(p["done"] for p in progress),
        total=sum(p["total"] for p in progress),
        revisions=revisions_for(project=project, user=request.user),
        just_saved=just_saved,
    )
    return render(request, "annotation/assignment_queue.html", context)


def _initial(task_type, items: list[Item]) -> dict:
    versions = [item.current_version for item in items if item.current_version is not None]
    if not versions:
        return {}
    payloads = [version.payload for version in versions]
    unit_authoring = task_type.unit_authoring
    initial = unit_authoring.unit_form_initial(payloads) if unit_authoring else task_type.form_initial(payloads[0])
    return {**initial, "justification": versions[0].justification}


def _form_payloads(task_type, cleaned_data: dict) -> list[dict]:
    """The payloads of the unit's items in slot order: the one item of the form, or all of the unit's."""
    if task_type.unit_authoring is not None:
        return task_type.unit_authoring.unit_payloads_from_form(cleaned_data)
    return [task_type.payload_from_form(cleaned_data)]


def _unit_data(task_type, cleaned_data: dict) -> dict:
    """The service's `data`: the payload of a one-item unit, else {"items": [payload, ...]}."""
    payloads = _form_payloads(task_type, cleaned_data)
    return payloads[0] if task_type.items_per_unit == 1 else {"items": payloads}


@dataclass
class SaveOutcome:
    item: Item | None = None
    notice: str = ""
    status: int = 200
    needs_justification: bool = False
    response: HttpResponse | None = None


def _save(request: HttpRequest, *, form, task_type, assignment: Assignment, language: str | None = None) -> SaveOutcome:
    """Save a draft or submit, as the pressed button says; a refusal comes back as notice + status."""
    if not form.is_valid():
        return SaveOutcome(notice="Check the highlighted fields.", status=400)
    submit = request.POST.get("action") == "submit"
    service = unit_submit if submit else unit_save_draft
    justification = form.cleaned_data.get("justification", "")
    # Read before the service's errors go on the form: add_error() drops fields from cleaned_data.
    cleaned = dict(form.cleaned_data)
    try:
        data = _unit_data(task_type, cleaned)
        item = service(
            assignment_id=assignment.pk, user=request.user, data=data, justification=justification, language=language
        )[0]
    except DomainError as exc:
        outcome = SaveOutcome(notice=exc.message, status=exc.http_status)
        if isinstance(exc, InvalidInput):
            apply_domain_error(form, exc)
            outcome.needs_justification = _only_warnings(task_type, assignment, cleaned)
        return outcome
    slug = assignment.project.slug
    if submit:
        # The queue says "here is your next one" only when there is one (SAVED), else that all is done.
        url = reverse("author_queue", args=[slug]) + SAVED
        return SaveOutcome(item=item, response=HttpResponseClientRedirect(url) if request.htmx else redirect(url))
    notice = f"Draft saved at {timezone.localtime():%H:%M:%S}."
    if request.htmx:
        return SaveOutcome(item=item, notice=notice)
    messages.success(request, notice)
    return SaveOutcome(item=item, response=redirect("author_item", slug=slug, assignment_id=assignment.pk))


def _only_warnings(task_type, assignment: Assignment, cleaned_data: dict) -> bool:
    """Only a soft warning (concept not found, no shared keyword) is left: point at the justification."""
    try:
        payloads = [task_type.normalize_payload(p) for p in _form_payloads(task_type, cleaned_data)]
    except InvalidInput:
        return False
    concept = assignment.concept.name if assignment.concept else None
    unit_data = assignment.concept.data if assignment.concept else {}
    check = task_type.check_unit(
        payloads, concept=concept, unit_data=unit_data, settings=project_settings(assignment.project)
    )
    return bool(check.warnings) and not check.errors


def _planned_pick(task_type, item: Item | None, assignment: Assignment) -> dict:
    """The picker's preset: the item's own unit, else the one the plan gave (the author may change it)."""
    unit = item.concept if item is not None and item.concept_id else assignment.concept
    if unit is None:
        return {}
    category_key, concept_key = task_type.unit_picking.unit_pick_keys
    if not task_type.unit_picking.unit_pickable(unit.data or {}):
        return {category_key: unit.category.name}  # a writing slot of the plan: its topic, no subtopic
    return {category_key: unit.category.name, concept_key: unit.name}


@dataclass(frozen=True)
class UnitSlot:
    """One item of a several-item unit as its author's page shows it: editable, or frozen as reviewed
    (its payload sent back unchanged); a sent-back one carries the reviewer's request."""

    number: int
    item: Item
    editable: bool
    payload: dict
    review: object | None  # qc.Review, reached through the reverse relation so annotation never imports qc


def _unit_items(assignment: Assignment) -> list[Item]:
    return list(Item.objects.filter(assignment=assignment).select_related("current_version").order_by("slot"))


def _last_review(item: Item):
    reviews = list(item.reviews.select_related("reviewer").prefetch_related("error_types"))
    return reviews[-1] if reviews else None


def _unit_slots(task_type, items: list[Item]) -> list[UnitSlot | None]:
    """Per slot of a several-item unit (None where no item exists yet); [] for a one-item task type."""
    if task_type.items_per_unit == 1:
        return []
    by_slot = {item.slot: item for item in items}
    slots: list[UnitSlot | None] = []
    for slot in range(task_type.items_per_unit):
        item = by_slot.get(slot)
        if item is None:
            slots.append(None)
            continue
        slots.append(
            UnitSlot(
                number=slot + 1,
                item=item,
                editable=item.status in EDITABLE,
                payload=item.current_version.payload if item.current_version else {},
                # only the sent-back items' reviews are read: usually one of the unit's six
                review=_last_review(item) if item.status in SHOW_REVIEW else None,
            )
        )
    return slots


def _skippable(assignment: Assignment, items: list[Item]) -> bool:
    """Open work whose items (if any) are unsubmitted drafts may be skipped (annotation.services.skips)."""
    open_work = assignment.status in (Assignment.Status.PENDING, Assignment.Status.ACTIVE)
    return open_work and all(i.status == Item.Status.DRAFT for i in items)


@login_required
@require_http_methods(["GET", "POST"])
def author_item(request: HttpRequest, slug: str, assignment_id: int) -> HttpResponse:
    membership = membership_for(user=request.user, slug=slug, roles=AUTHOR_ROLES)
    if (refused := gate_response(request, membership)) is not None:
        return refused
    project = membership.project
    assignment = assignment_for_user(project=project, user=request.user, assignment_id=assignment_id)
    task_type = get_task_type(project.task_type)
    items = _unit_items(assignment)
    item = items[0] if items else None
    extra = {}
    if (unit_variants := task_type.unit_variants) is not None:
        extra = unit_variants.author_form_kwargs(unit_items_besides(assignment=assignment))
        extra.update(unit_variants.author_assignment_kwargs(assignment))
    initial = _initial(task_type, items)
    if not initial and task_type.country_scope is not None:
        initial = task_type.country_scope.author_form_defaults(profile=getattr(membership, "profile", None))
    if task_type.unit_picking is not None:
        extra["catalog"] = unit_catalog(project=project, slot_key=task_type.unit_picking.plan_slot_key)
        initial = {**_planned_pick(task_type, item, assignment), **initial}
    form = task_type.form_class()(posted(request), initial=initial, **extra)
    lang, direction = page_language(project)
    content_direction(form, lang=lang, direction=direction)
    # The autosaved draft comes back into the form, so work is never lost to a closed tab (a submitted item
    # shows read-only instead).
    draft = work_draft_for(assignment=assignment)
    if draft is not None and not form.is_bound:
        restore_draft(form, draft.fields)
    outcome = SaveOutcome()
    # The item's language, chosen on the form only when the project has several (else the default stands).
    languages = project_languages(project)
    posted_language = request.POST.get("language") if request.method == "POST" and len(languages) > 1 else None
    if request.method == "POST":
        outcome = _save(request, form=form, task_type=task_type, assignment=assignment, language=posted_language)
        if outcome.response is not None:
            return outcome.response
        if outcome.item is not None:
            items = _unit_items(assignment)
            item = items[0]
    notice_is_error = outcome.status >= 400
    if notice_is_error and not request.htmx:
        messages.error(request, outcome.notice)
    reviews = list(item.reviews.select_related("reviewer").prefetch_related("error_types")) if item else []
    # Several items per unit: the one sent back, if any, is the review to show.
    sent_back = [i for i in items if i.status in SHOW_REVIEW]
    if len(items) > 1 and sent_back:
        reviews = list(sent_back[0].reviews.select_related("reviewer").prefetch_related("error_types"))
        item = sent_back[0]
    summary_template = task_type.unit_authoring.author_summary_template if task_type.unit_authoring else ""
    context = project_context(
        membership,
        assignment=assignment,
        item=item,
        form=form,
        notice="" if notice_is_error and not request.htmx else outcome.notice,
        notice_is_error=notice_is_error,
        needs_justification=outcome.needs_justification,
        items=items,
        unit_slots=_unit_slots(task_type, items),
        # What the writer is shown of each (TaskType.payload_for_annotator: a writer who may also judge).
        shown_items=[
            (i, payload_as_seen(membership=membership, item=i, payload=i.current_version.payload))
            for i in items
            if i.current_version is not None
        ],
        settings=project_settings(project),
        author_summary_template=summary_template,
        author_summary=(
            task_type.unit_authoring.author_summary(
                author_payloads(project=project, user=request.user), project_settings(project)
            )
            if summary_template
            else None
        ),
        editable=not items or len(items) < task_type.items_per_unit or any(i.status in EDITABLE for i in items),
        cancelled=assignment.status == Assignment.Status.CANCELLED and item is None,
        last_review=reviews[-1] if reviews and item.status in SHOW_REVIEW else None,
        progress=author_progress(project=project, user=request.user),
        revisions=[r for r in revisions_for(project=project, user=request.user) if r.assignment_id != assignment.pk],
        draft=draft if request.method == "GET" else None,  # a save just now replaced it with the item
        skip_form=SkipForm() if _skippable(assignment, items) else None,
        item_languages=languages if len(languages) > 1 else [],
        item_language=posted_language
        or (item.language if item is not None and item.language else "")
        or (author_default_language(project=project, user=request.user) if len(languages) > 1 else ""),
    )
    if request.htmx:
        # htmx swaps only 2xx answers: a refused draft save is shown inside the form it replaces.
        return render(request, "annotation/assignment_author.html#form", context)
    return render(request, "annotation/assignment_author.html", context, status=outcome.status)
