"""The csqa report page and its downloads (JSON, conflict matrix as CSV)."""

from __future__ import annotations

import csv

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from annotation.models import Membership
from annotation.selectors import membership_for
from annotation.views.common import REVIEW_ROLES, project_context
from qc.reports import csqa_report
from qc.reports.tables import conflict_csv_rows, heatmap


def _report_membership(request: HttpRequest, slug: str) -> Membership:
    membership = membership_for(user=request.user, slug=slug, roles=REVIEW_ROLES)
    if membership.project.task_type != "csqa":
        raise Http404("This project has no csqa report.")
    return membership


@login_required
@require_GET
def csqa_report_page(request: HttpRequest, slug: str) -> HttpResponse:
    membership = _report_membership(request, slug)
    report = csqa_report(project=membership.project)
    conflicts, by_region = report["conflicts"], report["conflicts_by_region"]
    context = project_context(
        membership,
        report=report,
        conflicts=heatmap(conflicts["annotators"], conflicts["counts"]),
        region_conflicts=heatmap(by_region["regions"], by_region["counts"]),
    )
    return render(request, "qc/report_csqa.html", context)


@login_required
@require_GET
def csqa_report_json(request: HttpRequest, slug: str) -> HttpResponse:
    membership = _report_membership(request, slug)
    response = JsonResponse(csqa_report(project=membership.project), json_dumps_params={"ensure_ascii": False})
    response["Content-Disposition"] = f'attachment; filename="{slug}-csqa-report.json"'
    return response


@login_required
@require_GET
def conflicts_csv(request: HttpRequest, slug: str) -> HttpResponse:
    """?by=region for the matrix grouped by the annotators' regions."""
    membership = _report_membership(request, slug)
    report = csqa_report(project=membership.project)
    by_region = request.GET.get("by") == "region"
    if by_region:
        labels, counts = report["conflicts_by_region"]["regions"], report["conflicts_by_region"]["counts"]
    else:
        labels, counts = report["conflicts"]["annotators"], report["conflicts"]["counts"]
    name = f"{slug}-conflicts{'-by-region' if by_region else ''}.csv"
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    writer = csv.writer(response)
    writer.writerows(conflict_csv_rows(labels, counts, corner="answerer \\ creator"))
    return response
