"""Categories and concepts: overview and file import."""

from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods, require_POST

from annotation.errors import DomainError, InvalidInput
from annotation.forms import ConceptImportForm, apply_domain_error
from annotation.forms.concepts import ConceptEditForm, ConceptSearchForm
from annotation.selectors import categories_with_counts, membership_for
from annotation.selectors.concepts import concept_for_project, concept_page
from annotation.services.catalog import concepts_import
from annotation.services.concepts import concept_set_retired, concept_update
from annotation.views.common import ADMIN_ONLY, posted, project_context, show_domain_error

SEARCH_KEYS = ("q", "category", "state", "after")


@login_required
@require_http_methods(["GET", "POST"])
def project_concepts(request: HttpRequest, slug: str) -> HttpResponse:
    membership = membership_for(user=request.user, slug=slug, roles=ADMIN_ONLY)
    project = membership.project
    form = ConceptImportForm(posted(request), posted(request, files=True))
    status, line_errors = 200, []
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        try:
            summary = concepts_import(
                project=project, data=upload.read(), filename=upload.name, fmt=form.cleaned_data["format"]
            )
        except InvalidInput as exc:
            status = show_domain_error(request, exc)
            line_errors = exc.field_errors.get("file", [])
        else:
            messages.success(
                request,
                gettext(
                    "Imported %(rows)s rows: %(categories_created)s new categories, %(concepts_created)s new "
                    "concepts, %(concepts_updated)s updated."
                )
                % {
                    "rows": summary.rows,
                    "categories_created": summary.categories_created,
                    "concepts_created": summary.concepts_created,
                    "concepts_updated": summary.concepts_updated,
                },
            )
            return redirect("project_concepts", slug=slug)
    elif request.method == "POST":
        status = 400
    categories = list(categories_with_counts(project=project))
    search = ConceptSearchForm(request.GET, categories=categories)
    filters = search.cleaned_data if search.is_valid() else {}
    after = request.GET.get("after", "")
    page = concept_page(
        project=project,
        q=filters.get("q", ""),
        category_id=filters.get("category"),
        state=filters.get("state") or "active",
        after=int(after) if after.isdigit() else None,
    )
    # The search as a query string, so the next page keeps it.
    query = urlencode({k: v for k, v in request.GET.items() if k in SEARCH_KEYS[:3] and v})
    context = project_context(
        membership,
        form=form,
        line_errors=line_errors,
        categories=categories,
        concept_total=sum(c.concept_count for c in categories),
        languages=list(project.languages.order_by("position", "code")),
        search=search,
        page=page,
        search_query=query,
    )
    return render(request, "annotation/concept_list.html", context, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def concept_edit(request: HttpRequest, slug: str, concept_id: int) -> HttpResponse:
    """Admins rename a concept or move it to another category."""
    membership = membership_for(user=request.user, slug=slug, roles=ADMIN_ONLY)
    concept = concept_for_project(project=membership.project, concept_id=concept_id)
    if concept is None:
        raise Http404("No such concept.")
    initial = {"name": concept.name, "category": concept.category.name}
    form = ConceptEditForm(posted(request), initial=initial)
    status = 200
    if request.method == "POST" and form.is_valid():
        try:
            concept_update(concept=concept, user=request.user, **form.cleaned_data)
        except DomainError as exc:
            status = show_domain_error(request, exc)
            apply_domain_error(form, exc)
        else:
            messages.success(request, gettext("Concept saved."))
            return redirect("project_concepts", slug=slug)
    elif request.method == "POST":
        status = 400
    context = project_context(membership, form=form, concept=concept)
    return render(request, "annotation/concept_edit.html", context, status=status)


@login_required
@require_POST
def concept_retire(request: HttpRequest, slug: str, concept_id: int) -> HttpResponse:
    """Retire (retire=1) or bring back (retire=0) a concept; back to the list the admin was on."""
    membership = membership_for(user=request.user, slug=slug, roles=ADMIN_ONLY)
    concept = concept_for_project(project=membership.project, concept_id=concept_id)
    if concept is None:
        raise Http404("No such concept.")
    retired = request.POST.get("retire") == "1"
    try:
        concept_set_retired(concept=concept, user=request.user, retired=retired)
    except DomainError as exc:
        show_domain_error(request, exc)
    else:
        if retired:
            messages.success(request, gettext("“%(name)s” is retired: no new assignments.") % {"name": concept.name})
        else:
            messages.success(request, gettext("“%(name)s” is active again.") % {"name": concept.name})
    target = reverse("project_concepts", kwargs={"slug": slug})
    # Back to the search the admin was on: only this page's own parameters are kept.
    back = QueryDict(request.POST.get("back", ""))
    query = urlencode({k: back[k] for k in SEARCH_KEYS if back.get(k)})
    return redirect(f"{target}?{query}" if query else target)
