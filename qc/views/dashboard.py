"""The project's QC dashboard: progress per annotator and category, items by status, error types, and
the charts, time spent and throughput of qc.overview."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from annotation.models import Membership
from annotation.selectors import dashboard_stats, whole_project_member
from annotation.services.known_answers import check_table
from annotation.views.common import REVIEW_ROLES, project_context
from qc.overview import overview


@login_required
@require_GET
def dashboard(request: HttpRequest, slug: str) -> HttpResponse:
    membership = whole_project_member(user=request.user, slug=slug, roles=REVIEW_ROLES)
    stats = dashboard_stats(project=membership.project)
    checks = check_table(project=membership.project)
    context = project_context(
        membership,
        stats=stats,
        ov=overview(project=membership.project, stats=stats),
        # The statuses' and error types' numbers are the charts' "Numbers" tables (qc.overview).
        rows=[(a, list(zip(stats["categories"], a["progress"], strict=True))) for a in stats["annotators"]],
        checks=checks,
        paused=sum(1 for row in checks if row["paused"]),
        can_resume=membership.role == Membership.Role.ADMIN,
    )
    return render(request, "qc/project_dashboard.html", context)
