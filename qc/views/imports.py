"""Import a released file into this project (admins), in one of its task type's formats."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods

from annotation.errors import DomainError
from annotation.forms import apply_domain_error
from annotation.selectors import membership_for
from annotation.services.imports import import_formats, items_import
from annotation.views.common import ADMIN_ONLY, posted, project_context, show_domain_error
from qc.forms import ItemsImportForm

ISSUES_SHOWN = 500


@login_required
@require_http_methods(["GET", "POST"])
def items_import_page(request: HttpRequest, slug: str) -> HttpResponse:
    membership = membership_for(user=request.user, slug=slug, roles=ADMIN_ONLY)
    project = membership.project
    formats = import_formats(task_type=project.task_type)
    first_language = project.languages.order_by("position", "code").values_list("code", flat=True).first()
    form = ItemsImportForm(
        posted(request),
        posted(request, files=True),
        initial={"language": first_language},
        formats=[(f.name, f.label) for f in formats],
    )
    summary, status = None, 200
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            summary = items_import(
                path_or_bytes=data["file"],
                project_slug=project.slug,
                format=data["format"],
                language=data["language"],
                annotator_regions=data["annotator_regions"] or None,
                creator=request.user,
            ).as_dict()
        except DomainError as exc:
            status = show_domain_error(request, exc)
            apply_domain_error(form, exc)
        else:
            word = next(f.importer.judgments_word for f in formats if f.name == data["format"])
            messages.success(
                request,
                gettext(
                    "Imported %(items)s items and %(judgments)s %(word)s from %(rows)s rows"
                    " (%(existing)s were already here)."
                )
                % {
                    "items": summary["items_created"],
                    "judgments": summary["judgments_created"],
                    "word": word,
                    "rows": summary["rows"],
                    "existing": summary["items_existing"],
                },
            )
    elif request.method == "POST":
        status = 400
    context = project_context(membership, form=form, summary=summary, issues_shown=ISSUES_SHOWN, formats=formats)
    if summary is not None:
        context["issue_table"] = [(code, n, summary["issue_rows"][code]) for code, n in summary["issue_counts"].items()]
        context["issues"] = summary["issues"][:ISSUES_SHOWN]
    return render(request, "qc/import_items.html", context, status=status)
