"""Project creation, overview, settings and authoring planning."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Count
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from annotation.errors import DomainError, InvalidInput
from annotation.forms import ProjectCreateForm, ProjectSettingsForm, apply_domain_error, format_languages
from annotation.forms.guidelines import guidelines_fields, guidelines_initial, guidelines_pop
from annotation.models import Assignment, Item, Membership
from annotation.selectors import (
    author_progress,
    categories_with_counts,
    items_visible_to,
    membership_for,
    sees_whole_project,
)
from annotation.selectors.stages import stage_counts
from annotation.services.assignments import assignment_plan_authoring
from annotation.services.projects import project_create as project_create_service
from annotation.services.projects import project_update
from annotation.stages import project_stages
from annotation.task_types import get_task_type
from annotation.task_types import project_settings as task_settings_of
from annotation.views.common import (
    ADMIN_ONLY,
    ANY_ROLE,
    posted,
    project_context,
    revisions_for,
    show_domain_error,
)


@login_required
@require_http_methods(["GET", "POST"])
def project_create(request: HttpRequest) -> HttpResponse:
    if not request.user.is_staff:
        raise Http404("No such page.")
    form = ProjectCreateForm(posted(request))
    status = 200
    if request.method == "POST" and form.is_valid():
        try:
            project = project_create_service(creator=request.user, **form.cleaned_data)
        except InvalidInput as exc:
            apply_domain_error(form, exc)
            status = show_domain_error(request, exc)
        else:
            messages.success(
                request, gettext("Project “%(name)s” created. Next: add members and concepts.") % {"name": project.name}
            )
            return redirect("project_detail", slug=project.slug)
    elif request.method == "POST":
        status = 400
    return render(request, "annotation/project_create.html", {"form": form}, status=status)


@login_required
@require_GET
def project_detail(request: HttpRequest, slug: str) -> HttpResponse:
    membership = membership_for(user=request.user, slug=slug, roles=ANY_ROLE)
    project = membership.project
    context = project_context(membership)
    context["task_settings"] = project.task_settings
    status_counts = dict(
        items_visible_to(membership=membership).values_list("status").annotate(n=Count("id")).order_by()
    )
    context["status_counts"] = [(value, label, status_counts.get(value, 0)) for value, label in Item.Status.choices]
    # Items sent back wait on their writers: the page says so, since nothing else moves them.
    context["waiting_revision"] = status_counts.get(Item.Status.REVISION_REQUESTED, 0)
    settings = task_settings_of(project)
    rule = context["task_type"].judging_rule(settings)
    counts = stage_counts(
        membership=membership,
        statuses=status_counts,
        judging_open=context.get("judge_nav", {}).get("open", 0),
        judging_kind=rule.kind if rule is not None else "",
    )
    context["stages"] = project_stages(
        task_type=context["task_type"],
        settings=settings,
        role=membership.role,
        counts=counts,
        screening=project.screening_required,
        whole_project=sees_whole_project(membership=membership),
    )
    if membership.role == Membership.Role.ANNOTATOR:
        context["progress"] = author_progress(project=project, user=request.user)
        context["revisions"] = revisions_for(project=project, user=request.user)
    if membership.role == Membership.Role.ADMIN:
        context["categories"] = list(categories_with_counts(project=project))
        context["role_counts"] = dict(
            project.memberships.filter(is_active=True).values_list("role").annotate(n=Count("id")).order_by()
        )
        context["assignment_counts"] = dict(
            Assignment.objects.filter(project=project, kind=Assignment.Kind.AUTHOR)
            .values_list("status")
            .annotate(n=Count("id"))
            .order_by()
        )
    return render(request, "annotation/project_detail.html", context)


def _after(fields: dict, name: str, extra: dict) -> dict:
    """`fields` with `extra` inserted after the field `name` (at the end if it is missing)."""
    out = {}
    for key, field in fields.items():
        out[key] = field
        if key == name:
            out.update(extra)
    return out | {key: field for key, field in extra.items() if key not in out}


@login_required
@require_http_methods(["GET", "POST"])
def project_settings(request: HttpRequest, slug: str) -> HttpResponse:
    membership = membership_for(user=request.user, slug=slug, roles=ADMIN_ONLY)
    project = membership.project
    initial = {
        "name": project.name,
        "languages": format_languages(project.languages.order_by("position", "code")),
        "guidelines": project.guidelines,
        "authors_per_concept": project.authors_per_concept,
        **project.task_settings,
        "plan_seed": project.plan_seed,
        "max_annotators": project.max_annotators,
        "aggregation_model": project.aggregation_model,
        "check_every": project.check_every,
        "pause_below_percent": project.pause_below_percent,
        "pause_after_checks": project.pause_after_checks,
    }
    # Judging guidelines and guidelines per project language, after the writing guidelines: judges and
    # writers of each language read their own.
    guideline_languages = list(project.languages.order_by("position", "code").values_list("code", "name"))
    initial.update(guidelines_initial(project, guideline_languages))
    form = ProjectSettingsForm(posted(request), initial=initial, task_type=get_task_type(project.task_type))
    form.fields = _after(form.fields, "guidelines", guidelines_fields(guideline_languages))
    status = 200
    if request.method == "POST" and form.is_valid():
        try:
            guidelines = guidelines_pop(form.cleaned_data, guideline_languages)
            project_update(project=project, **guidelines, **form.cleaned_data)
        except InvalidInput as exc:
            project.refresh_from_db()  # the service set fields on this instance before its rollback
            apply_domain_error(form, exc)
            status = show_domain_error(request, exc)
        else:
            messages.success(request, gettext("Settings saved."))
            return redirect("project_settings", slug=project.slug)
    elif request.method == "POST":
        status = 400
    return render(request, "annotation/project_settings.html", project_context(membership, form=form), status=status)


@login_required
@require_POST
def plan_authoring(request: HttpRequest, slug: str) -> HttpResponse:
    membership = membership_for(user=request.user, slug=slug, roles=ADMIN_ONLY)
    try:
        summary = assignment_plan_authoring(project=membership.project)
    except DomainError as exc:
        show_domain_error(request, exc)
    else:
        messages.success(
            request,
            gettext(
                "Authoring planned: %(units)s concepts for %(workers)s annotators; %(created)s assignments "
                "created, %(kept)s kept, %(removed)s removed, %(reactivated)s re-activated."
            )
            % {
                "units": summary.units,
                "workers": summary.workers,
                "created": summary.created,
                "kept": summary.kept,
                "removed": summary.removed,
                "reactivated": summary.reactivated,
            },
        )
    return redirect("project_detail", slug=slug)
