"""csqa's LLM pages: start a generation or an adaptation run (project admins), the human vs LLM report
(reviewers and admins). Both starts go through run_create, as the CLI does, and land on the run page."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from annotation.errors import DomainError
from annotation.models import Category, Membership
from annotation.selectors import membership_for
from annotation.views.common import ADMIN_ONLY, REVIEW_ROLES, project_context
from evaluation.models import Endpoint, PromptTemplate
from evaluation.services.runs import run_create
from evaluation.task_types.csqa.adaptation.commonsenseqa import parse_jsonl
from evaluation.task_types.csqa.generation import prompts
from evaluation.task_types.csqa.generation.batching import ConceptRef, plan_batches
from evaluation.task_types.csqa.generation.kind import project_language, project_template
from evaluation.task_types.csqa.reports.selectors import human_vs_llm


def _membership(request: HttpRequest, slug: str, roles: tuple[str, ...]) -> Membership:
    """These pages are csqa's own: another protocol's project has none (the URLs alone would open them for any)."""
    membership = membership_for(user=request.user, slug=slug, roles=roles)
    if membership.project.task_type != "csqa":
        raise Http404("This project's task type has no such page.")
    return membership


def _endpoint(request: HttpRequest) -> list[Endpoint]:
    return list(Endpoint.objects.filter(pk=request.POST.get("endpoint") or 0))


@login_required
@require_http_methods(["GET", "POST"])
def generate_page(request: HttpRequest, slug: str) -> HttpResponse:
    membership = _membership(request, slug, ADMIN_ONLY)
    project = membership.project
    data = request.POST if request.method == "POST" else request.GET
    template = data.get("template") or project_template(project)
    language = data.get("language") or project_language(project)
    chosen = data.getlist("categories")
    status, preview, error = 200, "", ""
    try:
        prompts.validate_template(template)  # first: its length is checked before anything reads it
    except DomainError as exc:
        error = " ".join(m for ms in exc.field_errors.values() for m in ms) or exc.message
        status = 400 if request.method == "POST" else 200
    categories = Category.objects.filter(project=project).order_by("name")
    first = categories.filter(name__in=chosen).first() if chosen else categories.first()
    if first is not None and not error:
        refs = [ConceptRef(first.name, c.name, c.pk) for c in first.concepts.order_by("pk")[:5]]
        preview = prompts.render_prompt(plan_batches(refs)[0], language=language, template=template) if refs else ""
    if request.method == "POST" and request.POST.get("action") == "start" and not error:
        try:
            run = run_create(
                kind="llm_gen",
                endpoints=_endpoint(request),
                project=project,
                user=request.user,
                parameters={
                    "language": language,
                    "categories": chosen,
                    "concepts": [c for c in request.POST.get("concepts", "").replace(" ", "").split(",") if c],
                    "items_per_concept": request.POST.get("items_per_concept") or 1,
                    "template": template,
                },
            )
        except DomainError as exc:
            messages.error(request, exc.message)
            status = exc.http_status
        else:
            if request.POST.get("save_template"):  # only a template a run accepted becomes the project's
                PromptTemplate.objects.update_or_create(
                    project=project, name="llm_gen", defaults={"text": template, "updated_by": request.user}
                )
            return redirect("llm_run_page", slug=slug, run_id=run.pk)
    context = project_context(
        membership,
        categories=categories,
        chosen=chosen,
        endpoints=Endpoint.objects.order_by("name"),
        template=template,
        language=language,
        preview=preview,
        template_error=error,
    )
    return render(request, "evaluation/generate.html", context, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def adapt_page(request: HttpRequest, slug: str) -> HttpResponse:
    membership = _membership(request, slug, ADMIN_ONLY)
    status = 200
    if request.method == "POST":
        try:
            upload = request.FILES.get("file")
            questions = [q.__dict__ for q in parse_jsonl(upload.read() if upload else b"")]
            run = run_create(
                kind="llm_adapt",
                endpoints=_endpoint(request),
                project=membership.project,
                user=request.user,
                parameters={
                    "questions": questions,
                    "location": request.POST.get("location", ""),
                    "language": request.POST.get("language", ""),
                    "second_language": request.POST.get("second_language", ""),
                    "threshold": request.POST.get("threshold", ""),
                },
            )
        except DomainError as exc:
            messages.error(request, exc.message)
            for errors in exc.field_errors.values():
                for error in errors[:10]:
                    messages.error(request, error)
            status = exc.http_status
        else:
            return redirect("llm_run_page", slug=slug, run_id=run.pk)
    context = project_context(membership, endpoints=Endpoint.objects.order_by("name"))
    return render(request, "evaluation/adapt.html", context, status=status)


@login_required
@require_http_methods(["GET"])
def human_vs_llm_page(request: HttpRequest, slug: str) -> HttpResponse:
    membership = _membership(request, slug, REVIEW_ROLES)
    report = human_vs_llm(project=membership.project)
    return render(request, "evaluation/human_vs_llm.html", project_context(membership, report=report))
