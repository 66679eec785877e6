"""The project's own benchmark templates (project admins): list with a preview of each on one of the
project's items, write or replace one, delete one. The rules are evaluation/services/benchmark_templates.py's.

A preview renders the template on the first item of the gold set (or, before there is gold, the first
approved item), exactly as a run would: through the sandbox, with only that item's fields.
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_http_methods

from annotation.errors import DomainError
from annotation.models import Item, Project
from annotation.selectors import membership_for
from annotation.task_types.base import BenchmarkSpec
from annotation.views.common import ADMIN_ONLY, posted, project_context, show_domain_error
from evaluation.benchmarks.dataset import slice_items
from evaluation.benchmarks.pages import benchmark_spec_or_404
from evaluation.services.benchmark_templates import (
    NAME_MAX,
    benchmark_template_delete,
    benchmark_template_save,
    benchmark_templates,
)
from evaluation.templating import MAX_TEMPLATE_CHARS
from evaluation.templating import render as render_template


class TemplateForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=NAME_MAX, help_text=_("Lower-case letters, digits, - and _."))
    template = forms.CharField(
        label=_("Template"),
        max_length=MAX_TEMPLATE_CHARS,
        widget=forms.Textarea(attrs={"rows": 8, "dir": "auto", "spellcheck": "false"}),
    )


def _sample_fields(project: Project, spec: BenchmarkSpec) -> dict | None:
    """The benchmark fields of one item a run would ask, for the previews; None when there is none."""
    for statuses in ([], [Item.Status.APPROVED]):
        parameters = {"gold_key": spec.gold_keys[0], "statuses": statuses}
        first = next(slice_items(project=project, parameters=parameters), None)
        if first is not None:
            return dict(first.task.fields)
    return None


@login_required
@require_http_methods(["GET", "POST"])
def benchmark_template_list(request: HttpRequest, slug: str) -> HttpResponse:
    membership = membership_for(user=request.user, slug=slug, roles=ADMIN_ONLY)
    project = membership.project
    spec = benchmark_spec_or_404(project)
    deleting = request.POST.get("action") == "delete"
    form = TemplateForm(None if deleting else posted(request))
    status = 200
    if request.method == "POST":
        status = 400
        try:
            if deleting:
                benchmark_template_delete(project=project, name=request.POST.get("name", ""))
                messages.success(
                    request, gettext("Template “%(name)s” deleted.") % {"name": request.POST.get("name", "")}
                )
                return redirect("benchmark_template_list", slug=slug)
            if form.is_valid():
                template = benchmark_template_save(
                    project=project,
                    name=form.cleaned_data["name"],
                    text=form.cleaned_data["template"],
                    user=request.user,
                )
                messages.success(request, gettext("Template “%(name)s” saved.") % {"name": form.cleaned_data["name"]})
                return redirect(f"{request.path}#template-{template.pk}")
        except DomainError as exc:
            status = show_domain_error(request, exc)
            for field, errors in (exc.field_errors if form.is_bound else {}).items():
                for error in errors:
                    form.add_error(field if field in form.fields else None, error)
    fields = _sample_fields(project, spec)
    templates = benchmark_templates(project=project)
    for template in templates:
        try:
            template.preview = render_template(template.text, fields) if fields is not None else ""
        except DomainError as exc:  # a row longer than the limit, written around the service
            template.preview = " ".join(m for ms in exc.field_errors.values() for m in ms)
    context = project_context(
        membership, form=form, templates=templates, spec=spec, builtin=spec.templates, has_sample=fields is not None
    )
    return render(request, "evaluation/benchmark_templates.html", context, status=status)
