"""KALAHI's scores page: every benchmark run of the project with MC1, MC2 (and the published variant),
MC3 or the open-ended overlap scores, by endpoint and category, with the validators' accuracy beside
them. Admins and reviewers read it (as the benchmark pages); anyone else, and any project of another
task type, gets a 404."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from annotation.selectors import membership_for
from annotation.views.common import REVIEW_ROLES, project_context
from evaluation.selectors import runs_for_project
from evaluation.task_types.cultural_prompt.report import kalahi_run_report

TASK_TYPE = "cultural_prompt"
RUNS_SHOWN = 20


@login_required
@require_GET
def scores_page(request: HttpRequest, slug: str) -> HttpResponse:
    membership = membership_for(user=request.user, slug=slug, roles=REVIEW_ROLES)
    project = membership.project
    if project.task_type != TASK_TYPE:
        raise Http404("This project has no KALAHI scores.")
    runs = list(runs_for_project(project=project).filter(kind="benchmark")[:RUNS_SHOWN])
    reports = [(run, kalahi_run_report(run=run)) for run in runs]
    context = project_context(membership, reports=reports)
    return render(request, "evaluation/task_types/cultural_prompt/scores.html", context)
