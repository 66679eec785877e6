"""The judging queue of an open-ended benchmark run (project reviewers and admins): one unjudged reply
at a time with its question and the gold answer; "Correct" / "Incorrect" records the verdict and shows
the next one. Annotators, other projects' members and runs that are not open-ended get a 404."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from annotation.errors import DomainError
from annotation.selectors import whole_project_member
from annotation.views.common import REVIEW_ROLES, project_context, show_domain_error
from evaluation.benchmarks.judging import is_open_ended, next_entry, prediction_judge
from evaluation.selectors import run_for_project

VERDICTS = {"correct": True, "incorrect": False}


@login_required
@require_http_methods(["GET", "POST"])
def judge_queue(request: HttpRequest, slug: str, run_id: int) -> HttpResponse:
    membership = whole_project_member(user=request.user, slug=slug, roles=REVIEW_ROLES)
    run = run_for_project(project=membership.project, run_id=run_id)
    if not is_open_ended(run):
        raise Http404("No open-ended run with this number.")
    status = 200
    if request.method == "POST":
        verdict = VERDICTS.get(request.POST.get("verdict", ""))
        try:
            prediction_id = int(request.POST.get("prediction", ""))
        except ValueError:
            prediction_id = 0
        if verdict is None or not prediction_id:
            messages.error(request, _("Choose correct or incorrect for a reply."))
            status = 400
        else:
            try:
                prediction_judge(run=run, prediction_id=prediction_id, user=request.user, correct=verdict)
            except DomainError as exc:
                status = show_domain_error(request, exc)
            else:
                return redirect("benchmark_judge", slug=slug, run_id=run.pk)
    entry = next_entry(run)
    context = project_context(membership, run=run, entry=entry, verdicts=VERDICTS)
    return render(request, "evaluation/benchmark_judge.html", context, status=status)
