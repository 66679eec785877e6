"""Endpoints (site staff): list, create, edit, and a one-request test shown in place (htmx)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from annotation.errors import DomainError
from annotation.views.common import posted
from evaluation.forms import EndpointForm
from evaluation.selectors import endpoint_for_staff, endpoints_for_staff
from evaluation.services.endpoints import endpoint_create, endpoint_test, endpoint_update


def _form_errors(form: EndpointForm, exc: DomainError) -> None:
    for field, errors in (exc.field_errors or {"__all__": [exc.message]}).items():
        for error in errors:
            form.add_error(field if field in form.fields else None, error)


@login_required
@require_GET
def endpoint_list(request: HttpRequest) -> HttpResponse:
    endpoints = list(endpoints_for_staff(user=request.user))
    return render(request, "evaluation/endpoint_list.html", {"endpoints": endpoints})


@login_required
@require_http_methods(["GET", "POST"])
def endpoint_new(request: HttpRequest) -> HttpResponse:
    endpoints_for_staff(user=request.user)  # 404 unless staff
    form = EndpointForm(posted(request))
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            try:
                endpoint = endpoint_create(**form.cleaned_data)
            except DomainError as exc:
                _form_errors(form, exc)
            else:
                messages.success(request, _("Endpoint %(name)s added.") % {"name": endpoint.name})
                return redirect("endpoint_list")
    return render(request, "evaluation/endpoint_form.html", {"form": form, "endpoint": None}, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def endpoint_edit(request: HttpRequest, endpoint_id: int) -> HttpResponse:
    endpoint = endpoint_for_staff(user=request.user, endpoint_id=endpoint_id)
    form = EndpointForm(posted(request), instance=endpoint)
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            data = {k: form.cleaned_data[k] for k in form.cleaned_data}
            endpoint.refresh_from_db()  # the form wrote into the instance; the service decides
            try:
                endpoint_update(endpoint=endpoint, **data)
            except DomainError as exc:
                _form_errors(form, exc)
            else:
                messages.success(request, _("Endpoint %(name)s saved.") % {"name": endpoint.name})
                return redirect("endpoint_list")
    return render(request, "evaluation/endpoint_form.html", {"form": form, "endpoint": endpoint}, status=status)


@login_required
@require_POST
def endpoint_test_view(request: HttpRequest, endpoint_id: int) -> HttpResponse:
    endpoint = endpoint_for_staff(user=request.user, endpoint_id=endpoint_id)
    outcome = endpoint_test(endpoint=endpoint)
    return render(request, "evaluation/partials/_endpoint_test.html", {"endpoint": endpoint, "outcome": outcome})
