"""The project's QC dashboard: progress per annotator and category, items by status, error types, and
the charts, time spent and throughput of qc.overview."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from annotation.aggregation.store import aggregation_applies, annotator_abilities, last_fit
from annotation.models import Item, Membership
from annotation.selectors import whole_project_member
from annotation.selectors.known_answers import check_table
from annotation.views.common import REVIEW_ROLES, project_context
from qc.overview import overview
from qc.selectors import dashboard_stats


@login_required
@require_GET
def dashboard(request: HttpRequest, slug: str) -> HttpResponse:
    membership = whole_project_member(user=request.user, slug=slug, roles=REVIEW_ROLES)
    project = membership.project
    stats = dashboard_stats(project=project)
    # Each annotator's ability in the aggregation model's last fit (one query), beside their progress.
    fitted = aggregation_applies(project)
    abilities = annotator_abilities(project=project) if fitted else {}
    # Each annotator's accuracy on known-answer checks, and whether they are paused.
    checks = check_table(
        project=project,
        members=[a["membership"] for a in stats["annotators"]],
        has_checks=stats["status_counts"][Item.Status.CHECK] > 0,
    )
    context = project_context(
        membership,
        stats=stats,
        ov=overview(project=project, stats=stats),
        # The statuses' and error types' numbers are the charts' "Numbers" tables (qc.overview).
        rows=[
            (a, list(zip(stats["categories"], a["progress"], strict=True)), abilities.get(a["user_id"]))
            for a in stats["annotators"]
        ],
        shows_ability=fitted,
        aggregation_fit=last_fit(project=project) if fitted else None,
        checks=checks,
        paused=sum(1 for row in checks if row["paused"]),
        can_resume=membership.role == Membership.Role.ADMIN,
    )
    return render(request, "qc/project_dashboard.html", context)
