"""ArabCulture's leaderboard page (and its JSON with `?format=json`): every benchmark run of the project
by model, mode, language, context, country, region, topic and country-specific versus shared. Admins
and reviewers read it (as the benchmark pages); anyone else, and a project of another task type, gets a 404."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_POST

from annotation.errors import DomainError
from annotation.selectors import membership_for, whole_project_member
from annotation.views.common import ADMIN_ONLY, REVIEW_ROLES, project_context
from evaluation.task_types.sentence_completion.leaderboard import project_leaderboard
from evaluation.task_types.sentence_completion.services import topics_add

TASK_TYPE = "sentence_completion"
TABLES = (
    ("by_mode", "Mode"),
    ("by_language", "Prompt language"),
    ("by_context", "Location context"),
    ("by_region", "Region"),
    ("by_country", "Country"),
    ("by_topic", "Topic"),
    ("by_relevance", "Country-specific or shared"),
)


@login_required
@require_GET
def leaderboard_page(request: HttpRequest, slug: str) -> HttpResponse:
    membership = whole_project_member(user=request.user, slug=slug, roles=REVIEW_ROLES)
    project = membership.project
    if project.task_type != TASK_TYPE:
        raise Http404("This project has no ArabCulture leaderboard.")
    board = project_leaderboard(project=project)
    if request.GET.get("format") == "json":
        return JsonResponse(board, json_dumps_params={"ensure_ascii": False})
    models = list(board["models"])
    tables = [
        (
            key,
            label,
            [
                (name, [board["models"][m][key].get(name) for m in models])
                for name in sorted({name for entry in board["models"].values() for name in entry[key]})
            ],
        )
        for key, label in TABLES
    ]
    context = project_context(membership, board=board, models=models, tables=tables)
    return render(request, "evaluation/task_types/sentence_completion/leaderboard.html", context)


@login_required
@require_POST
def topics_page(request: HttpRequest, slug: str) -> HttpResponse:
    """Admins: add the paper's 12 topics and the plan's writing slots per topic (idempotent)."""
    membership = membership_for(user=request.user, slug=slug, roles=ADMIN_ONLY)
    if membership.project.task_type != TASK_TYPE:
        raise Http404("Not a sentence-completion project.")
    raw = request.POST.get("slots", "").strip()
    try:
        summary = topics_add(project=membership.project, slots_per_topic=int(raw) if raw.isdigit() else raw)
    except DomainError as exc:
        messages.error(request, exc.message)
        return redirect("project_detail", slug=slug)
    messages.success(
        request,
        gettext("%(topics)s topics, %(subtopics)s subtopics and %(slots)s writing slots added.")
        % {"topics": summary.topics_created, "subtopics": summary.subtopics_created, "slots": summary.slots_created},
    )
    return redirect("project_detail", slug=slug)
