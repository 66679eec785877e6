"""Import an id-csqa file into this project (admins)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_http_methods

from annotation.errors import DomainError
from annotation.forms import apply_domain_error
from annotation.selectors import membership_for
from annotation.services.csqa_import import csqa_import
from annotation.views.common import ADMIN_ONLY, posted, project_context, show_domain_error
from qc.forms import CsqaImportForm

ISSUES_SHOWN = 500


@login_required
@require_http_methods(["GET", "POST"])
def csqa_import_page(request: HttpRequest, slug: str) -> HttpResponse:
    membership = membership_for(user=request.user, slug=slug, roles=ADMIN_ONLY)
    project = membership.project
    if project.task_type != "csqa":
        raise Http404("Only csqa projects import id-csqa files.")
    first_language = project.languages.order_by("position", "code").values_list("code", flat=True).first()
    form = CsqaImportForm(posted(request), posted(request, files=True), initial={"language": first_language})
    summary, status = None, 200
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            summary = csqa_import(
                path_or_bytes=data["file"].read(),
                project_slug=project.slug,
                language=data["language"],
                annotator_regions=data["annotator_regions"] or None,
                creator=request.user,
            ).as_dict()
        except DomainError as exc:
            status = show_domain_error(request, exc)
            apply_domain_error(form, exc)
        else:
            messages.success(
                request,
                f"Imported {summary['items_created']} items and {summary['judgments_created']} answers "
                f"from {summary['rows']} rows ({summary['items_existing']} were already here).",
            )
    elif request.method == "POST":
        status = 400
    context = project_context(membership, form=form, summary=summary, issues_shown=ISSUES_SHOWN)
    if summary is not None:
        context["issue_table"] = [(code, n, summary["issue_rows"][code]) for code, n in summary["issue_counts"].items()]
        context["issues"] = summary["issues"][:ISSUES_SHOWN]
    return render(request, "qc/import_csqa.html", context, status=status)
