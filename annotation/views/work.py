"""Work is never lost: the authoring form's autosave, skipping an assignment, the admin's skip list."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from annotation.errors import DomainError
from annotation.forms.work import SkipForm
from annotation.models import Assignment
from annotation.selectors import assignment_for_user, membership_for
from annotation.selectors.skips import skips_of_project
from annotation.services.drafts import clean_fields, work_draft_save
from annotation.services.skips import assignment_skip
from annotation.views.common import ADMIN_ONLY, AUTHOR_ROLES, project_context, show_domain_error

# Where a skip goes next: the queue of the page it came from (the judging pages have two address families).
QUEUES = ("author_queue", "judge_queue", "answer_queue")


def saved_at_text(saved_at) -> str:
    """HH:MM in the user's time zone (the middleware activates it), for "Draft saved at HH:MM"."""
    return timezone.localtime(saved_at).strftime("%H:%M")


@login_required
@require_POST
def author_draft_save(request: HttpRequest, slug: str, assignment_id: int) -> HttpResponse:
    """The authoring form's autosave (static/js/autosave.js): the fields as posted, unvalidated."""
    membership = membership_for(user=request.user, slug=slug, roles=AUTHOR_ROLES)
    assignment = assignment_for_user(project=membership.project, user=request.user, assignment_id=assignment_id)
    try:
        draft = work_draft_save(
            assignment_id=assignment.pk, user=request.user, fields=clean_fields(list(request.POST.lists()))
        )
    except DomainError as exc:
        return JsonResponse({"error": exc.message}, status=exc.http_status)
    time = saved_at_text(draft.saved_at)
    return JsonResponse({"saved_at": draft.saved_at.isoformat(), "time": time})


@login_required
@require_POST
def skip(request: HttpRequest, slug: str, assignment_id: int) -> HttpResponse:
    """Give an authoring or judging assignment back with a reason; then the next one of the queue."""
    membership = membership_for(user=request.user, slug=slug, roles=AUTHOR_ROLES)
    assignment = assignment_for_user(project=membership.project, user=request.user, assignment_id=assignment_id)
    queue = request.POST.get("queue", "")
    if queue not in QUEUES:
        queue = "author_queue" if assignment.kind == Assignment.Kind.AUTHOR else "judge_queue"
    form = SkipForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose why you skip it."))
        return redirect(queue, slug=slug)
    try:
        assignment_skip(
            assignment_id=assignment.pk,
            user=request.user,
            reason=form.cleaned_data["reason"],
            note=form.cleaned_data["note"],
        )
    except DomainError as exc:
        show_domain_error(request, exc)
        return redirect(queue, slug=slug)  # the queue opens the assignment still held, with the message
    messages.success(request, _("Skipped. Someone else will get it; here is your next one."))
    return redirect(queue, slug=slug)


@login_required
@require_GET
def project_skips(request: HttpRequest, slug: str) -> HttpResponse:
    """The admin's list of skipped work: unit, who, reason, note, when (newest first)."""
    membership = membership_for(user=request.user, slug=slug, roles=ADMIN_ONLY)
    skips = list(skips_of_project(project=membership.project))
    return render(request, "annotation/skip_list.html", project_context(membership, skips=skips))
