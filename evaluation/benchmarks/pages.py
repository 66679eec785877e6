"""The benchmark pages of a project.

Who: project admins start benchmarks; admins and reviewers read the results (the list, the
leaderboard, an item's drill-down, the downloads, the comparison of two runs): a reviewer judges
open-ended replies of the same runs (open_ended_views.py), so the figures those verdicts make are
theirs to read. Annotators, other projects' members and anyone else get a 404, as on every project
page; a run id of another project, or of a run that is not a benchmark, is a 404 too.

Starting goes through run_create(kind="benchmark") with the CLI's parameters and lands on the run
page (evaluation/views/runs.py: live progress, pause, resume, cancel). The figures are
evaluation/benchmarks/report.py's; the charts and the grid are evaluation/benchmarks/leaderboard.py's.
"""

from __future__ import annotations

import csv
import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.http import require_GET, require_http_methods

from annotation.errors import DomainError
from annotation.models import Project
from annotation.selectors import whole_project_member
from annotation.task_types import get_task_type
from annotation.task_types.base import BenchmarkSpec
from annotation.views.common import ADMIN_ONLY, REVIEW_ROLES, posted, project_context, show_domain_error
from evaluation.benchmarks import leaderboard
from evaluation.benchmarks.forms import BenchmarkForm
from evaluation.benchmarks.report import benchmark_report
from evaluation.models import BenchmarkCase, Prediction, Run
from evaluation.selectors import runs_for_project
from evaluation.services.runs import run_create
from qc.csv_cells import neutralise_csv_cell

RUNS_SHOWN = 50
CHANGES_SHOWN = 500
UNPARSED_SHOWN = 200  # the page lists the first ones; the downloads have them all
BREAKDOWNS = ("endpoint", "template", "category", "source", "split", "language", "label")
# What the page calls each breakdown (the group names themselves are report keys and element ids).
BREAKDOWN_LABELS = {
    "endpoint": gettext_lazy("endpoint"),
    "template": gettext_lazy("template"),
    "category": gettext_lazy("category"),
    "source": gettext_lazy("source"),
    "split": gettext_lazy("split"),
    "language": gettext_lazy("language"),
    "label": gettext_lazy("label"),
}


def benchmark_spec_or_404(project: Project) -> BenchmarkSpec:
    """The project's benchmark, or 404 on its pages: a task type without one has no benchmark pages."""
    spec = get_task_type(project.task_type).benchmark()
    if spec is None:
        raise Http404("This project's task type has no benchmark.")
    return spec


def benchmark_run(*, project: Project, run_id: int) -> Run:
    """A benchmark run of this project, or 404 (another project's run, another kind of run)."""
    run = runs_for_project(project=project).filter(pk=run_id, kind="benchmark").first()
    if run is None:
        raise Http404("No such benchmark run.")
    return run


@login_required
@require_http_methods(["GET", "POST"])
def benchmark_list(request: HttpRequest, slug: str) -> HttpResponse:
    roles = ADMIN_ONLY if request.method == "POST" else REVIEW_ROLES
    membership = whole_project_member(user=request.user, slug=slug, roles=roles)
    project = membership.project
    spec = benchmark_spec_or_404(project)
    form = BenchmarkForm(posted(request), spec=spec, project=project) if membership.role in ADMIN_ONLY else None
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            try:
                run = run_create(
                    kind="benchmark",
                    endpoints=list(form.cleaned_data["endpoints"]),
                    parameters=form.parameters(),
                    project=project,
                    user=request.user,
                )
            except DomainError as exc:
                status = show_domain_error(request, exc)
            else:
                messages.success(request, gettext("Benchmark run #%(pk)s started.") % {"pk": run.pk})
                return redirect("llm_run_page", slug=slug, run_id=run.pk)
    runs = list(runs_for_project(project=project).filter(kind="benchmark")[:RUNS_SHOWN])
    context = project_context(membership, form=form, runs=runs, spec=spec)
    return render(request, "evaluation/benchmark_list.html", context, status=status)


def _breakdowns(report: dict) -> list[tuple[str, str, list[tuple[str, dict]]]]:
    return [
        (group, BREAKDOWN_LABELS[group], list(report[f"by_{group}"].items()))
        for group in BREAKDOWNS
        if report.get(f"by_{group}")
    ]


@login_required
@require_GET
def benchmark_leaderboard(request: HttpRequest, slug: str, run_id: int) -> HttpResponse:
    membership = whole_project_member(user=request.user, slug=slug, roles=REVIEW_ROLES)
    run = benchmark_run(project=membership.project, run_id=run_id)
    report = benchmark_report(run=run)
    grid = leaderboard.category_grid(run)
    context = project_context(
        membership,
        run=run,
        report=report,
        breakdowns=_breakdowns(report),
        unparsed=report["unparsed"][:UNPARSED_SHOWN],
        bars=leaderboard.bar_chart(report["by_endpoint"], report["human_baseline"]),
        grid=grid,
        heatmap=leaderboard.heatmap(grid),
        endpoints=list(run.endpoints.all()),
        other_runs=list(
            runs_for_project(project=membership.project).filter(kind="benchmark").exclude(pk=run.pk)[:RUNS_SHOWN]
        ),
    )
    return render(request, "evaluation/benchmark_leaderboard.html", context)


@login_required
@require_GET
def benchmark_item(request: HttpRequest, slug: str, run_id: int, item_id: int) -> HttpResponse:
    membership = whole_project_member(user=request.user, slug=slug, roles=REVIEW_ROLES)
    run = benchmark_run(project=membership.project, run_id=run_id)
    case = BenchmarkCase.objects.filter(run=run, item_id=item_id).first()
    if case is None:
        raise Http404("This item is not in the run.")
    predictions = [
        (prediction, leaderboard.prompt_text(prediction.call.request if prediction.call else None))
        for prediction in Prediction.objects.filter(run=run, item_id=item_id)
        .select_related("endpoint", "call")
        .order_by("endpoint__name", "template")
    ]
    options = list(zip(case.answers, case.options, strict=False)) if case.options else []
    context = project_context(membership, run=run, case=case, options=options, predictions=predictions)
    return render(request, "evaluation/benchmark_item.html", context)


class _Echo:
    def write(self, value: str) -> str:
        return value


def _csv_lines(run: Run):
    writer = csv.writer(_Echo())
    yield writer.writerow(leaderboard.DOWNLOAD_FIELDS)
    for record in leaderboard.download_rows(run):
        yield writer.writerow(
            [neutralise_csv_cell(value) if isinstance(value, str) else value for value in record.values()]
        )


@login_required
@require_GET
def benchmark_download(request: HttpRequest, slug: str, run_id: int, fmt: str) -> HttpResponse:
    membership = whole_project_member(user=request.user, slug=slug, roles=REVIEW_ROLES)
    run = benchmark_run(project=membership.project, run_id=run_id)
    name = f"{slug}-benchmark-{run.pk}-predictions.{fmt}"
    if fmt == "csv":
        response = StreamingHttpResponse(_csv_lines(run), content_type="text/csv; charset=utf-8")
    else:
        body = {"run": run.pk, "parameters": run.parameters, "predictions": list(leaderboard.download_rows(run))}
        response = HttpResponse(json.dumps(body, ensure_ascii=False), content_type="application/json")
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


def _run_param(request: HttpRequest, name: str, project: Project) -> Run | None:
    value = request.GET.get(name, "")
    if not value:
        return None
    try:
        run_id = int(value)
    except ValueError:
        raise Http404("No such benchmark run.") from None
    return benchmark_run(project=project, run_id=run_id)


@login_required
@require_GET
def benchmark_compare(request: HttpRequest, slug: str) -> HttpResponse:
    """Two runs side by side: accuracy overall, by endpoint and by template, and the predictions of the
    same (item, endpoint, template) whose correctness changed from run A to run B."""
    membership = whole_project_member(user=request.user, slug=slug, roles=REVIEW_ROLES)
    project = membership.project
    benchmark_spec_or_404(project)  # a task type without a benchmark has no runs to compare
    a, b = _run_param(request, "a", project), _run_param(request, "b", project)
    context = project_context(
        membership, a=a, b=b, runs=list(runs_for_project(project=project).filter(kind="benchmark")[:RUNS_SHOWN])
    )
    if a is not None and b is not None:
        report_a, report_b = benchmark_report(run=a), benchmark_report(run=b)
        sides = []
        for group in ("endpoint", "template", "category"):
            names = sorted(report_a[f"by_{group}"].keys() | report_b[f"by_{group}"].keys())
            sides.append((group, [(n, report_a[f"by_{group}"].get(n), report_b[f"by_{group}"].get(n)) for n in names]))
        changes = leaderboard.changed_items(a, b)
        context.update(
            report_a=report_a,
            report_b=report_b,
            sides=sides,
            changes=changes[:CHANGES_SHOWN],
            changes_total=len(changes),
            fixed=sum(1 for c in changes if c.correct_b),
            broken=sum(1 for c in changes if not c.correct_b),
        )
    return render(request, "evaluation/benchmark_compare.html", context)
