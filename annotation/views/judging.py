"""Cross-answering pages: the admin's plan and overview, the annotator's answering queue and form."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods

from annotation.errors import DomainError, InvalidInput
from annotation.forms import apply_domain_error
from annotation.forms.judging import answer_initial
from annotation.models import Assignment, Membership
from annotation.selectors import assignment_current, membership_for
from annotation.selectors.judgments import (
    answer_assignment_for_user,
    answer_progress,
    answer_question,
    crossanswer_overview,
    own_answer,
)
from annotation.services.assignments import assignment_claim_next
from annotation.services.crossanswer import assignment_plan_cross_answers
from annotation.services.judgments import judgment_record
from annotation.task_types import get_task_type
from annotation.views.common import ADMIN_ONLY, AUTHOR_ROLES, project_context, show_domain_error

ANSWER = Assignment.Kind.ANSWER


def _answering_membership(request: HttpRequest, slug: str) -> Membership:
    membership = membership_for(user=request.user, slug=slug, roles=AUTHOR_ROLES)
    if get_task_type(membership.project.task_type).answer_form_class() is None:
        raise Http404("This project has no cross-answering.")
    return membership


@login_required
@require_http_methods(["GET", "POST"])
def crossanswer_plan(request: HttpRequest, slug: str) -> HttpResponse:
    """GET: how far cross-answering is. POST: plan it (again), then show the summary."""
    membership = membership_for(user=request.user, slug=slug, roles=ADMIN_ONLY)
    project = membership.project
    if request.method == "POST":
        try:
            summary = assignment_plan_cross_answers(project=project)
        except DomainError as exc:
            show_domain_error(request, exc)
        else:
            messages.success(
                request,
                f"Cross-answering planned: {summary.items} items for {summary.workers} annotators; "
                f"{summary.created} assignments created, {summary.reactivated} re-activated, "
                f"{summary.moved} moved from annotators who left.",
            )
        return redirect("crossanswer_plan", slug=slug)
    context = project_context(membership, overview=crossanswer_overview(project=project))
    return render(request, "annotation/answer_plan.html", context)


@login_required
@require_GET
def answer_queue(request: HttpRequest, slug: str) -> HttpResponse:
    membership = _answering_membership(request, slug)
    project = membership.project
    assignment = assignment_current(project=project, user=request.user, kind=ANSWER) or assignment_claim_next(
        project=project, user=request.user, kind=ANSWER
    )
    if assignment is not None:
        return redirect("answer_item", slug=slug, assignment_id=assignment.pk)
    done, total = answer_progress(project=project, user=request.user)
    return render(request, "annotation/answer_queue.html", project_context(membership, done=done, total=total))


@login_required
@require_http_methods(["GET", "POST"])
def answer_item(request: HttpRequest, slug: str, assignment_id: int) -> HttpResponse:
    membership = _answering_membership(request, slug)
    project = membership.project
    assignment = answer_assignment_for_user(project=project, user=request.user, assignment_id=assignment_id)
    question = answer_question(assignment=assignment, user=request.user)
    form_class = get_task_type(project.task_type).answer_form_class()
    form = form_class(
        request.POST or None, initial=answer_initial(own_answer(item_id=question.item_id, user=request.user))
    )
    status = 200
    if request.method == "POST" and form.is_valid():
        try:
            judgment_record(assignment_id=assignment.pk, user=request.user, data=form.judgment_data())
        except DomainError as exc:
            status = show_domain_error(request, exc)
            if isinstance(exc, InvalidInput):
                apply_domain_error(form, exc)
        else:
            messages.success(request, "Answer saved. Here is the next question.")
            return redirect("answer_queue", slug=slug)
    elif request.method == "POST":
        status = 400
    done, total = answer_progress(project=project, user=request.user)
    context = project_context(
        membership,
        assignment=assignment,
        question=question,
        form=form,
        cancelled=assignment.status == Assignment.Status.CANCELLED,
        done=done,
        total=total,
    )
    return render(request, "annotation/answer_item.html", context, status=status)
