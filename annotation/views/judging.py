"""Judging pages, for every task type with a judging rule: the admin's plan and overview, the judge's
queue and form. The form, its template and its keys come from the task type.

Two families of routes reach the same views: /p/<slug>/judge/ (generic) and /p/<slug>/answer/ (the
older cross-answering address, kept for bookmarks and scripts); each view redirects within its family.
The plan's older address, /p/<slug>/crossanswer/, redirects to /p/<slug>/judging/plan/.
"""

from __future__ import annotations

import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, HttpResponsePermanentRedirect
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_http_methods

from annotation.errors import DomainError, InvalidInput
from annotation.forms import apply_domain_error
from annotation.forms.work import SkipForm
from annotation.models import Assignment, Membership
from annotation.selectors import membership_for
from annotation.selectors.judgments import (
    judge_assignment_for_user,
    judge_item_for,
    judging_overview,
    judging_progress,
    own_judgment,
)
from annotation.selectors.undo import judgment_change_refusal, last_judged
from annotation.services.assignments import assignment_resume_or_claim
from annotation.services.judging import judging_plan
from annotation.services.judgments import judgment_change
from annotation.task_types import get_task_type, project_settings
from annotation.task_types.base import JudgingRule, TaskType
from annotation.views.common import (
    ADMIN_ONLY,
    AUTHOR_ROLES,
    SAVED,
    content_direction,
    page_language,
    project_context,
    show_domain_error,
)
from annotation.views.screening import gate_response

OPEN = (Assignment.Status.PENDING, Assignment.Status.ACTIVE)
JUDGE_ROUTES = {"queue": "judge_queue", "item": "judge_item"}
ANSWER_ROUTES = {"queue": "answer_queue", "item": "answer_item"}


def _judging_membership(request: HttpRequest, slug: str) -> tuple[Membership, TaskType, JudgingRule]:
    membership = membership_for(user=request.user, slug=slug, roles=AUTHOR_ROLES)
    project = membership.project
    task_type = get_task_type(project.task_type)
    rule = task_type.judging_rule(project_settings(project))
    if rule is None or task_type.judgment_form_class() is None:
        raise Http404("This project has no judging.")
    return membership, task_type, rule


@login_required
@require_http_methods(["GET", "POST"])
def judging_plan_page(request: HttpRequest, slug: str) -> HttpResponse:
    """GET: how far round 1 of judging is. POST: plan it (again), then show the summary."""
    membership = membership_for(user=request.user, slug=slug, roles=ADMIN_ONLY)
    project = membership.project
    rule = get_task_type(project.task_type).judging_rule(project_settings(project))
    if rule is None:
        raise Http404("This project has no judging.")
    if request.method == "POST":
        try:
            summary = judging_plan(project=project)
        except DomainError as exc:
            show_domain_error(request, exc)
        else:
            messages.success(
                request,
                gettext(
                    "%(activity)s planned: %(items)s items for %(workers)s annotators; %(created)s assignments "
                    "created, %(reactivated)s re-activated, %(moved)s moved from annotators who left."
                )
                % {
                    "activity": rule.activity,
                    "items": summary.items,
                    "workers": summary.workers,
                    "created": summary.created,
                    "reactivated": summary.reactivated,
                    "moved": summary.moved,
                },
            )
        return redirect("judging_plan", slug=slug)
    context = project_context(
        membership, overview=judging_overview(project=project), rule=rule, share_percent=round(rule.share * 100)
    )
    return render(request, "annotation/judging_plan.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def judging_plan_moved(request: HttpRequest, slug: str) -> HttpResponse:
    """The plan's older address. Checked like the page, so it tells an outsider nothing (404) about the
    project; a POST is sent on with 308, which keeps the method and the body (301 would turn it into GET)."""
    membership_for(user=request.user, slug=slug, roles=ADMIN_ONLY)
    response = HttpResponsePermanentRedirect(reverse("judging_plan", args=[slug]))
    if request.method == "POST":
        response.status_code = 308
    return response


@login_required
@require_GET
def judge_queue(request: HttpRequest, slug: str, routes: dict[str, str] = JUDGE_ROUTES) -> HttpResponse:
    membership, _, rule = _judging_membership(request, slug)
    if (refused := gate_response(request, membership)) is not None:
        return refused
    project = membership.project
    assignment = assignment_resume_or_claim(project=project, user=request.user, kind=rule.kind)
    just_saved = "saved" in request.GET
    if assignment is not None:
        if just_saved:
            messages.success(request, rule.saved)
        return redirect(routes["item"], slug=slug, assignment_id=assignment.pk)
    done, total = judging_progress(project=project, user=request.user, kind=rule.kind)
    context = project_context(
        membership,
        done=done,
        total=total,
        rule=rule,
        queue_route=routes["queue"],
        # The last answer stays one click away, so a misclick is put right by the judge (changeable while unused).
        previous=last_judged(project=project, user=request.user, kind=rule.kind),
        item_route=routes["item"],
        just_saved=just_saved,
    )
    return render(request, "annotation/judge_queue.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def judge_item(
    request: HttpRequest, slug: str, assignment_id: int, routes: dict[str, str] = JUDGE_ROUTES
) -> HttpResponse:
    membership, task_type, rule = _judging_membership(request, slug)
    if (refused := gate_response(request, membership)) is not None:
        return refused
    project = membership.project
    assignment = judge_assignment_for_user(
        project=project, user=request.user, assignment_id=assignment_id, kind=rule.kind
    )
    question = judge_item_for(assignment=assignment, user=request.user, task_type_name=project.task_type)
    form_class = task_type.judgment_form_class()
    previous = own_judgment(
        item_id=assignment.target_item_id, user=request.user, kind=rule.kind, task_type_name=project.task_type
    )
    form = form_class(request.POST or None, initial=form_class.initial_for(previous))
    lang, direction = page_language(project)
    content_direction(form, lang=lang, direction=direction)
    status = 200
    if request.method == "POST" and form.is_valid():
        try:
            # The page's path: a done answer changes only while unused (annotation.services.undo).
            judgment_change(assignment_id=assignment.pk, user=request.user, data=form.judgment_data())
        except DomainError as exc:
            status = show_domain_error(request, exc)
            if isinstance(exc, InvalidInput):
                apply_domain_error(form, exc)
        else:
            # The queue says rule.saved ("here is the next one") only when there is one, else that all is done.
            return redirect(reverse(routes["queue"], args=[slug]) + SAVED)
    elif request.method == "POST":
        status = 400
    done, total = judging_progress(project=project, user=request.user, kind=rule.kind)
    context = project_context(
        membership,
        assignment=assignment,
        question=question,
        form=form,
        rule=rule,
        judgment_keys=json.dumps(task_type.judgment_keys_for(question), sort_keys=True),
        shown_keys=list(task_type.judgment_keys_for(question)),
        queue_route=routes["queue"],
        cancelled=assignment.status == Assignment.Status.CANCELLED,
        # "Previous" lets a judge put a misclick right (while the answer is unused); skip with a reason lets them
        # pass an item they can't judge without answering it badly.
        change_refusal=judgment_change_refusal(assignment=assignment),
        previous=last_judged(project=project, user=request.user, kind=rule.kind, besides=assignment.pk),
        item_route=routes["item"],
        skip_form=SkipForm() if assignment.status in OPEN and not getattr(question, "is_own", False) else None,
        done=done,
        total=total,
    )
    template = task_type.judge_page_template or "annotation/judge_item.html"
    return render(request, template, context, status=status)
