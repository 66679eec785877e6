"""The annotator's authoring queue and form."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_GET, require_http_methods
from django_htmx.http import HttpResponseClientRedirect

from annotation.errors import DomainError, InvalidInput
from annotation.forms import apply_domain_error
from annotation.models import Assignment, Item
from annotation.selectors import (
    assignment_current,
    assignment_for_user,
    author_progress,
    membership_for,
)
from annotation.services.assignments import assignment_claim_next
from annotation.services.items import EDITABLE, item_save_draft, item_submit
from annotation.task_types import get_task_type
from annotation.views.common import AUTHOR_ROLES, posted, project_context, revisions_for

AUTHOR = Assignment.Kind.AUTHOR
SHOW_REVIEW = (Item.Status.REVISION_REQUESTED, Item.Status.REJECTED)


@login_required
@require_GET
def author_queue(request: HttpRequest, slug: str) -> HttpResponse:
    membership = membership_for(user=request.user, slug=slug, roles=AUTHOR_ROLES)
    project = membership.project
    assignment = assignment_current(project=project, user=request.user, kind=AUTHOR) or assignment_claim_next(
        project=project, user=request.user, kind=AUTHOR
    )
    if assignment is not None:
        return redirect("author_item", slug=slug, assignment_id=assignment.pk)
    progress = author_progress(project=project, user=request.user)
    context = project_context(
        membership,
        progress=progress,
        done=sum(p["done"] for p in progress),
        total=sum(p["total"] for p in progress),
        revisions=revisions_for(project=project, user=request.user),
    )
    return render(request, "annotation/assignment_queue.html", context)


def _initial(task_type, item: Item | None) -> dict:
    version = item.current_version if item else None
    if version is None:
        return {}
    return {**task_type.form_initial(version.payload), "justification": version.justification}


@login_required
@require_http_methods(["GET", "POST"])
def author_item(request: HttpRequest, slug: str, assignment_id: int) -> HttpResponse:
    membership = membership_for(user=request.user, slug=slug, roles=AUTHOR_ROLES)
    project = membership.project
    assignment = assignment_for_user(project=project, user=request.user, assignment_id=assignment_id)
    task_type = get_task_type(project.task_type)
    item = Item.objects.filter(assignment=assignment).select_related("current_version").first()
    form_class = task_type.form_class()
    form = form_class(posted(request), initial=_initial(task_type, item))
    status, notice, needs_justification = 200, "", False
    if request.method == "POST" and form.is_valid():
        submit = request.POST.get("action") == "submit"
        data = task_type.payload_from_form(form.cleaned_data)
        service = item_submit if submit else item_save_draft
        try:
            item = service(
                assignment_id=assignment.pk,
                user=request.user,
                data=data,
                justification=form.cleaned_data.get("justification", ""),
            )
        except DomainError as exc:
            notice, status = exc.message, exc.http_status
            if isinstance(exc, InvalidInput):
                apply_domain_error(form, exc)
                concept = assignment.concept.name if assignment.concept else None
                check = task_type.check_payload(task_type.normalize_payload(data), concept=concept)
                needs_justification = bool(check.warnings) and not check.errors
        else:
            if submit:
                messages.success(request, "Submitted for review. Here is your next one.")
                if request.htmx:
                    return HttpResponseClientRedirect(redirect("author_queue", slug=slug).url)
                return redirect("author_queue", slug=slug)
            notice = f"Draft saved at {timezone.localtime():%H:%M:%S}."
            if not request.htmx:
                messages.success(request, notice)
                return redirect("author_item", slug=slug, assignment_id=assignment.pk)
    elif request.method == "POST":
        notice, status = "Some fields are too long.", 400
    notice_is_error = status >= 400
    # htmx only swaps 2xx responses; a refused draft save still needs its messages shown in place.
    if request.htmx:
        status = 200
    elif notice and status >= 400:
        messages.error(request, notice)
        notice = ""
    reviews = list(item.reviews.select_related("reviewer").prefetch_related("error_types")) if item else []
    context = project_context(
        membership,
        assignment=assignment,
        item=item,
        form=form,
        notice=notice,
        needs_justification=needs_justification,
        editable=item is None or item.status in EDITABLE,
        cancelled=assignment.status == Assignment.Status.CANCELLED and item is None,
        notice_is_error=notice_is_error,
        last_review=reviews[-1] if reviews and item.status in SHOW_REVIEW else None,
        progress=author_progress(project=project, user=request.user),
        revisions=[r for r in revisions_for(project=project, user=request.user) if r.pk != (item.pk if item else None)],
    )
    template = "annotation/assignment_author.html"
    return render(request, f"{template}#form" if request.htmx else template, context, status=status)
