"""preference pages of the model side: rater groups (admins), pair downloads (admins and reviewers)."""

from __future__ import annotations

import io
from dataclasses import asdict

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext, ngettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from annotation.errors import DomainError, InvalidInput
from annotation.models import Membership
from annotation.selectors import membership_for
from annotation.services.members import members_set_groups
from annotation.task_types.preference.export import PAIR_SHAPES
from annotation.task_types.preference.judging import GROUPS
from annotation.views.common import ADMIN_ONLY, REVIEW_ROLES, project_context, show_domain_error
from evaluation.judge_calibration import ALL
from evaluation.models import Endpoint, Run
from evaluation.services.runs import run_create
from evaluation.task_types.preference.exports import FORMATS, data_card, pair_rows, project_pairs, write_rows
from evaluation.task_types.preference.judge_calibration import run_calibration
from evaluation.task_types.preference.judge_report import judge_report
from evaluation.task_types.preference.kinds import JUDGE, RESPONSES
from evaluation.task_types.preference.services import prompt_slots_add, responses_import
from qc.charts import reliability_chart

TASK_TYPE = "preference"


def _membership(request: HttpRequest, slug: str, roles: tuple[str, ...]) -> Membership:
    membership = membership_for(user=request.user, slug=slug, roles=roles)
    if membership.project.task_type != TASK_TYPE:
        raise Http404("Not a preference project.")
    return membership


@login_required
@require_http_methods(["GET", "POST"])
def raters_page(request: HttpRequest, slug: str) -> HttpResponse:
    membership = _membership(request, slug, ADMIN_ONLY)
    project = membership.project
    annotators = Membership.objects.filter(project=project, role=Membership.Role.ANNOTATOR).select_related("user")
    status = 200
    if request.method == "POST":
        # One save for the whole table: every "group-<membership id>" field posted.
        prefix = "group-"
        groups = {
            int(k[len(prefix) :]): v
            for k, v in request.POST.items()
            if k.startswith(prefix) and k[len(prefix) :].isdigit()
        }
        try:
            changed = members_set_groups(project=project, groups=groups)
        except DomainError as exc:
            status = show_domain_error(request, exc)
        else:
            messages.success(request, ngettext("%(n)s rater moved.", "%(n)s raters moved.", changed) % {"n": changed})
            return redirect("preference_raters", slug=slug)
    context = project_context(membership, raters=annotators.order_by("code", "user__username"), groups=GROUPS)
    return render(request, "evaluation/task_types/preference/raters.html", context, status=status)


@login_required
@require_POST
def prompt_slots_page(request: HttpRequest, slug: str) -> HttpResponse:
    """Admins: add the paper's ten categories with N prompt slots each (catalog import, idempotent)."""
    membership = _membership(request, slug, ADMIN_ONLY)
    raw = request.POST.get("slots", "").strip()
    try:
        summary = prompt_slots_add(project=membership.project, slots_per_category=int(raw) if raw.isdigit() else raw)
    except DomainError as exc:
        messages.error(request, exc.message)
        return redirect("project_detail", slug=slug)
    messages.success(
        request,
        gettext("%(categories)s categories and %(slots)s prompt slots added.")
        % {"categories": summary.categories_created, "slots": summary.concepts_created},
    )
    return redirect("project_detail", slug=slug)


@login_required
@require_GET
def pairs_download(request: HttpRequest, slug: str) -> HttpResponse:
    membership = _membership(request, slug, REVIEW_ROLES)
    """?shape=indopref|chosen_rejected&format=jsonl|csv|parquet|card (card: the data card, README.md)."""
    shape = request.GET.get("shape", "indopref")
    fmt = request.GET.get("format", "jsonl")
    if shape not in PAIR_SHAPES or fmt not in (*FORMATS, "card"):
        raise Http404("Unknown shape or format.")
    project = membership.project
    if fmt == "card":
        name, count = f"{slug}-pairs-{shape}.jsonl", len(project_pairs(project))
        card = data_card(project=project, shape=shape, fmt="jsonl", file_name=name, count=count)
        response = HttpResponse(card, content_type="text/markdown; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{slug}-pairs-{shape}-README.md"'
        return response
    if fmt == "parquet":
        binary = io.BytesIO()
        write_rows(pair_rows(project=project, shape=shape), shape=shape, fmt=fmt, out=binary)
        response = HttpResponse(binary.getvalue(), content_type="application/vnd.apache.parquet")
    else:
        buffer = io.StringIO()
        write_rows(pair_rows(project=project, shape=shape), shape=shape, fmt=fmt, out=buffer)
        content_type = "application/x-ndjson" if fmt == "jsonl" else "text/csv"
        response = HttpResponse(buffer.getvalue(), content_type=f"{content_type}; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{slug}-pairs-{shape}.{fmt}"'
    return response


@login_required
@require_http_methods(["GET", "POST"])
def runs_page(request: HttpRequest, slug: str) -> HttpResponse:
    """Start a response run (one response per prompt and endpoint) or a judge run; list the judge runs."""
    membership = _membership(request, slug, ADMIN_ONLY)
    project = membership.project
    status = 200
    problems: list[str] = []
    if request.method == "POST" and request.POST.get("action") == "import_responses":
        upload = request.FILES.get("file")
        try:
            if upload is None:
                raise InvalidInput(
                    gettext("Choose a file of responses."), field_errors={"file": [gettext("Required.")]}
                )
            summary = responses_import(project=project, data=upload.read())
        except DomainError as exc:
            status = show_domain_error(request, exc)
            problems = exc.field_errors.get("file", [])
        else:
            messages.success(
                request,
                gettext("%(added)s response(s) added to %(prompts)s prompt(s); %(skipped)s already there.") % summary,
            )
            return redirect("preference_runs", slug=slug)
    elif request.method == "POST":
        kind = RESPONSES if request.POST.get("action") == "responses" else JUDGE
        endpoints = list(Endpoint.objects.filter(pk__in=[p for p in request.POST.getlist("endpoints") if p.isdigit()]))
        parameters = {
            "max_tokens": request.POST.get("max_tokens", ""),
            "temperature": request.POST.get("temperature", ""),
        }
        if kind == RESPONSES:
            parameters["system"] = request.POST.get("system", "")
        else:
            parameters["languages"] = request.POST.getlist("languages")
            parameters["confidence"] = request.POST.get("confidence") == "on"
        try:
            run = run_create(kind=kind, endpoints=endpoints, project=project, user=request.user, parameters=parameters)
        except DomainError as exc:
            status = show_domain_error(request, exc)
        else:
            return redirect("llm_run_page", slug=slug, run_id=run.pk)
    context = project_context(
        membership,
        endpoints=Endpoint.objects.order_by("name"),
        runs=Run.objects.filter(project=project, kind__in=(RESPONSES, JUDGE)).order_by("-pk")[:50],
        judge_kind=JUDGE,
        import_problems=problems,
    )
    return render(request, "evaluation/task_types/preference/runs.html", context, status=status)


def _judge_run(membership, run_id: int) -> Run:
    """The project's judge run `run_id`, or 404."""
    run = Run.objects.filter(project=membership.project, kind=JUDGE, pk=run_id).first()
    if run is None:
        raise Http404("No such judge run.")
    return run


@login_required
@require_GET
def judge_report_page(request: HttpRequest, slug: str, run_id: int) -> HttpResponse:
    membership = _membership(request, slug, REVIEW_ROLES)
    run = _judge_run(membership, run_id)
    report = judge_report(run)
    if request.GET.get("format") == "json":
        return JsonResponse(report)
    return render(
        request,
        "evaluation/task_types/preference/judge_report.html",
        project_context(membership, run=run, report=report),
    )


@login_required
@require_GET
def judge_calibration_page(request: HttpRequest, slug: str, run_id: int) -> HttpResponse:
    """Admins: how far each judge of a run agrees with the people, its position bias and calibration."""
    membership = _membership(request, slug, ADMIN_ONLY)
    run = _judge_run(membership, run_id)
    figures = run_calibration(run)
    if request.GET.get("format") == "json":
        return JsonResponse({"results": [asdict(f) for f in figures]})
    judges = []
    for n, overall in enumerate((f for f in figures if f.category == ALL), start=1):
        chart = reliability_chart([(b.low, b.high, b.count, b.confidence, b.accuracy) for b in overall.bins])
        categories = [f for f in figures if f.judge == overall.judge and f.category != ALL]
        judges.append({"overall": overall, "categories": categories, "chart": chart, "chart_id": f"reliability-{n}"})
    return render(
        request,
        "evaluation/task_types/preference/judge_calibration.html",
        project_context(membership, run=run, judges=judges),
    )
