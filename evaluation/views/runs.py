"""LLM runs of a project (project admins): start a responses run, follow its progress live (htmx
polling while it is active), pause / resume / cancel, read every call."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from annotation.errors import DomainError
from annotation.selectors import membership_for
from annotation.views.common import ADMIN_ONLY, posted, project_context, show_domain_error
from evaluation.forms import ResponsesRunForm
from evaluation.run_display import parameter_rows, run_title
from evaluation.selectors import call_for_run, calls_for_run, run_for_project, runs_for_project
from evaluation.services.draft_summary import DRAFT_KINDS, created_page, filtered_page
from evaluation.services.runs import run_cancel, run_create, run_pause, run_resume, runs_sweep_shown
from evaluation.task_types import task_type_pages

RUNS_PER_PAGE = 50
CALLS_PER_PAGE = 100
CONTROLS = {"pause": run_pause, "resume": run_resume, "cancel": run_cancel}
CONTROL_DONE = {
    "pause": gettext_lazy("Run #%(pk)s paused."),
    "resume": gettext_lazy("Run #%(pk)s resumed."),
    "cancel": gettext_lazy("Run #%(pk)s cancelled."),
}


@login_required
@require_http_methods(["GET", "POST"])
def run_list(request: HttpRequest, slug: str) -> HttpResponse:
    membership = membership_for(user=request.user, slug=slug, roles=ADMIN_ONLY)
    project = membership.project
    form = ResponsesRunForm(posted(request))
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            try:
                run = run_create(
                    kind="responses",
                    endpoints=[form.cleaned_data["endpoint"]],
                    parameters=form.parameters(),
                    project=project,
                    user=request.user,
                )
            except DomainError as exc:
                status = show_domain_error(request, exc)
            else:
                messages.success(request, _("Run #%(pk)s started.") % {"pk": run.pk})
                return redirect("llm_run_page", slug=slug, run_id=run.pk)
    page = Paginator(runs_for_project(project=project), RUNS_PER_PAGE).get_page(request.GET.get("page"))
    runs = list(page.object_list)
    if request.method == "GET" and runs_sweep_shown(runs=runs):
        runs = list(Paginator(runs_for_project(project=project), RUNS_PER_PAGE).get_page(page.number).object_list)
    titled = [(run, run_title(kind=run.kind, models=len(run.endpoints.all()))) for run in runs]
    pages = task_type_pages(project.task_type, project.slug)
    context = project_context(membership, form=form, runs=titled, page=page, task_type_pages=pages)
    return render(request, "evaluation/run_list.html", context, status=status)


@login_required
@require_GET
def run_page(request: HttpRequest, slug: str, run_id: int) -> HttpResponse:
    """The run; htmx asks for the progress partial every second while the run is active."""
    membership = membership_for(user=request.user, slug=slug, roles=ADMIN_ONLY)
    run = run_for_project(project=membership.project, run_id=run_id)
    if runs_sweep_shown(runs=[run]):
        run.refresh_from_db()
    template = "evaluation/run_page.html"
    if request.htmx:
        return render(request, f"{template}#progress", project_context(membership, run=run))
    drafts = created = None
    if run.kind in DRAFT_KINDS:
        drafts = filtered_page(run, reason=request.GET.get("reason", "")[:40], page=request.GET.get("page"))
        created = created_page(run, page=request.GET.get("created_page"))
    endpoints = list(run.endpoints.all())
    context = project_context(
        membership,
        run=run,
        endpoints=endpoints,
        drafts=drafts,
        created=created,
        title=run_title(kind=run.kind, models=len(endpoints)),
        parameters=parameter_rows(run.parameters),
    )
    return render(request, template, context)


@login_required
@require_POST
def run_control(request: HttpRequest, slug: str, run_id: int, action: str) -> HttpResponse:
    membership = membership_for(user=request.user, slug=slug, roles=ADMIN_ONLY)
    run = run_for_project(project=membership.project, run_id=run_id)
    service = CONTROLS.get(action)
    if service is None:
        raise Http404("No such action.")
    try:
        service(run=run)
    except DomainError as exc:
        show_domain_error(request, exc)
    else:
        messages.success(request, CONTROL_DONE[action] % {"pk": run.pk})
    return redirect("llm_run_page", slug=slug, run_id=run.pk)


@login_required
@require_GET
def call_list(request: HttpRequest, slug: str, run_id: int) -> HttpResponse:
    membership = membership_for(user=request.user, slug=slug, roles=ADMIN_ONLY)
    run = run_for_project(project=membership.project, run_id=run_id)
    calls = calls_for_run(run=run)
    wanted = request.GET.get("status", "")
    if wanted:
        calls = calls.filter(status=wanted)
    page = Paginator(calls, CALLS_PER_PAGE).get_page(request.GET.get("page"))
    context = project_context(membership, run=run, page=page, wanted=wanted)
    return render(request, "evaluation/call_list.html", context)


@login_required
@require_GET
def call_detail(request: HttpRequest, slug: str, run_id: int, call_id: int) -> HttpResponse:
    membership = membership_for(user=request.user, slug=slug, roles=ADMIN_ONLY)
    run = run_for_project(project=membership.project, run_id=run_id)
    call = call_for_run(run=run, call_id=call_id)
    return render(request, "evaluation/call_detail.html", project_context(membership, run=run, call=call))
