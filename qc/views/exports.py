"""Gold-set exports (admins): start a run per format, watch its progress, download its files. The
known-answer checks' file is one more run format, beside the gold set's, under the same rules."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import FileResponse, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from annotation.errors import DomainError
from annotation.selectors import membership_for
from annotation.views.common import ADMIN_ONLY, posted, project_context, show_domain_error
from qc.exports.checks import CHECKS, checks_count
from qc.exports.runs import export_run_create, export_runs_for_project, export_runs_sweep_shown
from qc.exports.selectors import export_file_path, export_run_for_project
from qc.forms import ExportForm
from qc.models import ExportRun

RUNS_SHOWN = 20
ACTIVE = (ExportRun.Status.PENDING, ExportRun.Status.RUNNING)


@login_required
@require_http_methods(["GET", "POST"])
def export_page(request: HttpRequest, slug: str) -> HttpResponse:
    """GET: the runs (htmx: only the runs partial, polled while a run is under way). POST: a new run."""
    membership = membership_for(user=request.user, slug=slug, roles=ADMIN_ONLY)
    project = membership.project
    form = ExportForm(posted(request))
    status = 200
    if request.method == "POST" and form.is_valid():
        try:
            run = export_run_create(project=project, fmt=form.cleaned_data["format"], user=request.user)
        except DomainError as exc:
            status = show_domain_error(request, exc)
        else:
            messages.success(
                request, _("Export #%(pk)s (%(format)s) started.") % {"pk": run.pk, "format": run.get_format_display()}
            )
            return redirect("export_page", slug=slug)
    elif request.method == "POST":
        status = 400
    runs = list(export_runs_for_project(project=project)[:RUNS_SHOWN])
    if request.method == "GET" and export_runs_sweep_shown(runs=runs):
        runs = list(export_runs_for_project(project=project)[:RUNS_SHOWN])
    context = project_context(
        membership,
        form=form,
        runs=runs,
        polling=any(run.status in ACTIVE for run in runs),
        formats=[(value, label) for value, label in ExportRun.Format.choices if value != CHECKS],
        checks=None if request.htmx else checks_count(project=project),
    )
    template = "qc/export_runs.html"
    return render(request, f"{template}#runs" if request.htmx else template, context, status=status)


@login_required
@require_GET
def export_download(request: HttpRequest, slug: str, run_id: int, name: str) -> HttpResponse:
    membership = membership_for(user=request.user, slug=slug, roles=ADMIN_ONLY)
    run = export_run_for_project(project=membership.project, run_id=run_id)
    path = export_file_path(run=run, name=name)
    return FileResponse(path.open("rb"), as_attachment=True, filename=f"{slug}-export-{run.pk}-{name}")
