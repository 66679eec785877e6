"""QC pages: the review queue and the review page."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.http import require_http_methods

from annotation.errors import DomainError, InvalidInput
from annotation.forms import apply_domain_error
from annotation.models import Item, ProjectLanguage
from annotation.selectors import item_for_member, membership_for
from annotation.task_types import get_task_type
from annotation.views.common import REVIEW_ROLES, item_history, posted, previous_submitted_diff, project_context
from qc.forms import ReviewForm
from qc.review_queue import review_queue_order
from qc.services import draft_revise, review_claim_next, review_decide, reviewable_items

QUEUE_LIMIT = 100


@login_required
@require_http_methods(["GET", "POST"])
def review_queue(request: HttpRequest, slug: str) -> HttpResponse:
    """GET lists what is waiting; POST ("Review next") claims the next item and opens it."""
    membership = membership_for(user=request.user, slug=slug, roles=REVIEW_ROLES)
    project = membership.project
    if request.method == "POST":
        item = review_claim_next(project=project, reviewer=request.user)
        if item is not None:
            return redirect("review_item", slug=slug, item_id=item.pk)
        messages.info(request, gettext("Nothing is waiting for review."))
        return redirect("review_queue", slug=slug)
    waiting = (
        reviewable_items(project=project, reviewer=request.user)
        .exclude(author=request.user)
        .exclude(current_version__created_by=request.user)
        .select_related("concept__category", "author", "current_version", "reviewer")
    )
    waiting = review_queue_order(waiting, reviewer=request.user)
    # ?source=llm_gen: only the drafts of one origin (human, llm_gen, llm_adapt, import); unknown ones ignored.
    source = request.GET.get("source", "")
    if source in Item.Source.values:
        waiting = waiting.filter(source=source)
    items = list(waiting[:QUEUE_LIMIT])
    context = project_context(
        membership,
        total=waiting.count() if len(items) == QUEUE_LIMIT else len(items),
        source=source if source in Item.Source.values else "",
        sources=Item.Source.choices,
    )
    summary = context["task_type"].summary
    context["rows"] = [(item, summary(item.current_version.payload) if item.current_version else "") for item in items]
    return render(request, "qc/review_queue.html", context)


DONE_MESSAGES = {
    "approve": gettext_lazy("Approved."),
    "revise": gettext_lazy("Sent back to the author with your feedback."),
    "reject": gettext_lazy("Rejected."),
}


def _advance(request: HttpRequest, membership) -> HttpResponse:
    """After a decision: straight to the next item of the reviewer's queue (claimed in the queue's order);
    back to the queue only when nothing is left, saying so."""
    following = review_claim_next(project=membership.project, reviewer=request.user)
    if following is not None:
        return redirect("review_item", slug=membership.project.slug, item_id=following.pk)
    messages.info(request, gettext("That was the last item waiting for review: the queue is empty."))
    return redirect("review_queue", slug=membership.project.slug)


@login_required
@require_http_methods(["GET", "POST"])
def review_item(request: HttpRequest, slug: str, item_id: int) -> HttpResponse:
    membership = membership_for(user=request.user, slug=slug, roles=REVIEW_ROLES)
    item = item_for_member(membership=membership, item_id=item_id)
    form = ReviewForm(posted(request), project=membership.project, initial={"version_id": item.current_version_id})
    status = 200
    if request.method == "POST" and form.is_valid():
        try:
            data = form.cleaned_data
            review_decide(
                item_id=item.pk,
                version_id=data["version_id"],
                reviewer=request.user,
                decision=data["decision"],
                feedback=data["feedback"],
                error_type_codes=data["error_types"],
            )
        except DomainError as exc:
            messages.error(request, exc.message)
            status = exc.http_status
            if isinstance(exc, InvalidInput):
                apply_domain_error(form, exc)
            else:
                # The item moved on (new version, someone else decided): show it as it is now, and keep
                # what the reviewer wrote so nothing is lost.
                item = item_for_member(membership=membership, item_id=item_id)
                form = ReviewForm(
                    project=membership.project,
                    initial={**form.cleaned_data, "version_id": item.current_version_id},
                )
        else:
            messages.success(request, DONE_MESSAGES[form.cleaned_data["decision"]])
            return _advance(request, membership)
    elif request.method == "POST":
        status = 400
    context = project_context(membership, item=item, form=form)
    history = item_history(item=item, task_type=context["task_type"])
    previous, changes = previous_submitted_diff(rows=history, task_type=context["task_type"])
    context.update(
        history=history,
        previous=previous,
        changes=changes,
        # Shown because "Wrong language" is an error type the reviewer may mark.
        item_language=ProjectLanguage.objects.filter(project_id=item.project_id, code=item.language).first(),
        reviewable=item.status == Item.Status.SUBMITTED
        and item.author_id != request.user.pk
        and not (item.current_version and item.current_version.created_by_id == request.user.pk),
    )
    return render(request, "qc/review_item.html", context, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def draft_revise_page(request: HttpRequest, slug: str, item_id: int) -> HttpResponse:
    """A reviewer's or admin's revision of a model's draft sent back for revision: the task type's form,
    prefilled with the current version; saved through draft_revise, the draft is back in the queue
    (for another reviewer: nobody decides on a version they wrote)."""
    membership = membership_for(user=request.user, slug=slug, roles=REVIEW_ROLES)
    item = item_for_member(membership=membership, item_id=item_id)
    task_type = get_task_type(item.task_type)
    initial = task_type.form_initial(item.current_version.payload if item.current_version else {})
    form = task_type.form_class()(request.POST if request.method == "POST" else None, initial=initial)
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            try:
                draft_revise(
                    item_id=item.pk,
                    user=request.user,
                    data=task_type.payload_from_form(form.cleaned_data),
                    note=request.POST.get("note", ""),
                )
            except DomainError as exc:
                messages.error(request, exc.message)
                status = exc.http_status
            else:
                messages.success(request, gettext("Revision saved; the draft is back in the review queue."))
                return redirect("review_queue", slug=slug)
    context = project_context(membership, item=item, form=form)
    return render(request, "qc/draft_revise.html", context, status=status)
