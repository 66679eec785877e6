"""Categories and concepts: overview and file import."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from annotation.errors import InvalidInput
from annotation.forms import ConceptImportForm
from annotation.selectors import categories_with_counts, membership_for
from annotation.services.catalog import concepts_import
from annotation.views.common import ADMIN_ONLY, posted, project_context, show_domain_error


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
                f"Imported {summary.rows} rows: {summary.categories_created} new categories, "
                f"{summary.concepts_created} new concepts, {summary.concepts_updated} updated.",
            )
            return redirect("project_concepts", slug=slug)
    elif request.method == "POST":
        status = 400
    categories = list(categories_with_counts(project=project))
    context = project_context(
        membership,
        form=form,
        line_errors=line_errors,
        categories=categories,
        concept_total=sum(c.concept_count for c in categories),
        languages=list(project.languages.order_by("position", "code")),
    )
    return render(request, "annotation/concept_list.html", context, status=status)
