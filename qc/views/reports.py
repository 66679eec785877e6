"""The report page of every task type, its JSON download, and the conflict matrix as CSV (for the task
types whose sections carry one)."""

from __future__ import annotations

import csv

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from annotation.aggregation.ranking import last_model_ranking, ranking_applies
from annotation.aggregation.store import aggregation_applies, disagreeing_items, last_fit
from annotation.models import Membership
from annotation.selectors import whole_project_member
from annotation.task_types import get_task_type
from annotation.views.common import REVIEW_ROLES, project_context
from qc.overview import overview
from qc.reports import model_ranking_report
from qc.reports.languages import LanguageRow, language_breakdown
from qc.reports.model_ranking import ranking_table
from qc.reports.snapshots import PageReport, report_for_page
from qc.reports.tables import conflict_csv_rows
from qc.selectors import dashboard_stats


def _report_membership(request: HttpRequest, slug: str) -> Membership:
    membership = whole_project_member(user=request.user, slug=slug, roles=REVIEW_ROLES)
    if not get_task_type(membership.project.task_type).report_template:
        raise Http404("This project has no report.")
    return membership


@login_required
@require_GET
def report_page(request: HttpRequest, slug: str) -> HttpResponse:
    membership = _report_membership(request, slug)
    page = report_for_page(project=membership.project)
    # The charts every task type's report gets (progress, statuses, agreement per category, error types);
    # a big project's background report leaves them to the dashboard, so its page stays a snapshot read.
    # Its items-per-language table (a grouped count over every item) was counted by the build and saved
    # with the snapshot.
    charts = language_rows = None
    if page.snapshot is None:
        charts = overview(project=membership.project, stats=dashboard_stats(project=membership.project), work=False)
        language_rows = language_breakdown(project=membership.project)
    elif page.snapshot.built_at is not None:
        language_rows = [LanguageRow(**row) for row in page.snapshot.languages]
    context = project_context(membership, report=page.report, snapshot=page.snapshot, building=page.building, ov=charts)
    context["language_rows"] = language_rows
    if aggregation_applies(membership.project):
        # The last fit and its most confident disagreements with the rule: two queries, whatever the size.
        context["shows_aggregation"] = True
        context["aggregation_fit"] = last_fit(project=membership.project)
        context["disagreements"] = disagreeing_items(project=membership.project) if context["aggregation_fit"] else []
    if ranking_applies(membership.project):
        # The last ranking of the models, fitted in the background: one query, whatever the size.
        ranking = last_model_ranking(project=membership.project)
        context["shows_model_ranking"] = True
        context["model_ranking"] = ranking
        context["model_ranking_rows"] = ranking_table(ranking.ranking) if ranking is not None else []
    return render(request, "qc/report_page.html", context)


def _still_building(page: PageReport) -> JsonResponse:
    # A big project's first report is still being built in the background (qc.reports.snapshots).
    stage = page.snapshot.stage if page.snapshot is not None else ""
    response = JsonResponse({"building": True, "stage": stage}, status=202)
    response["Retry-After"] = "10"
    return response


@login_required
@require_GET
def report_json(request: HttpRequest, slug: str) -> HttpResponse:
    membership = _report_membership(request, slug)
    page = report_for_page(project=membership.project)
    if page.report is None:
        return _still_building(page)
    report = {**page.report, **model_ranking_report(project=membership.project)}
    response = JsonResponse(report, json_dumps_params={"ensure_ascii": False})
    response["Content-Disposition"] = f'attachment; filename="{slug}-{membership.project.task_type}-report.json"'
    return response


@login_required
@require_GET
def conflicts_csv(request: HttpRequest, slug: str) -> HttpResponse:
    """?by=region for the matrix grouped by the annotators' regions."""
    membership = _report_membership(request, slug)
    page = report_for_page(project=membership.project)
    if page.report is None:
        return _still_building(page)
    report = page.report
    if "conflicts" not in report:
        raise Http404("This report has no conflict matrix.")
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
