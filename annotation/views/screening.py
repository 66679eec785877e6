"""Screening, training and pilot pages (any task type): the applicant's steps and the admin's overview."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods

from annotation.errors import DomainError, InvalidInput, NotAllowed, Paused
from annotation.forms.countries import ReviewCountriesForm
from annotation.forms.screening import ScreeningItemFormSet, initial_rows, items_of
from annotation.models import Application, Membership, ScreeningSetup
from annotation.selectors import membership_for
from annotation.selectors.countries import review_country_choices
from annotation.services.known_answers import membership_pause_gate
from annotation.services.members import member_set_countries
from annotation.services.screening import (
    DEFAULT_CRITERIA,
    application_admit,
    applications_for,
    pilot_submit,
    screening_configure,
    screening_submit,
    training_submit,
    work_gate,
)
from annotation.task_types import get_task_type
from annotation.views.common import ADMIN_ONLY, AUTHOR_ROLES, project_context, show_domain_error


def gate_response(request: HttpRequest, membership: Membership) -> HttpResponse | None:
    """A 403 page pointing to the screening when this annotator may not work yet; None when they may."""
    try:
        membership_pause_gate(membership)
    except Paused as exc:
        return render(
            request, "annotation/work_paused.html", project_context(membership, message=exc.message), status=403
        )
    try:
        work_gate(project=membership.project, user_id=membership.user_id)
    except NotAllowed as exc:
        context = project_context(membership, message=exc.message)
        return render(request, "annotation/screening_blocked.html", context, status=403)
    return None


def _answers(request: HttpRequest, items: list[dict]) -> list[int | None]:
    out: list[int | None] = []
    for n in range(len(items)):
        value = request.POST.get(f"item_{n}", "")
        out.append(int(value) if value.isdigit() else None)
    return out


@login_required
@require_http_methods(["GET", "POST"])
def screening_page(request: HttpRequest, slug: str) -> HttpResponse:
    membership = membership_for(user=request.user, slug=slug, roles=AUTHOR_ROLES)
    setup = ScreeningSetup.objects.filter(project=membership.project, required=True).first()
    if setup is None:
        raise Http404("This project has no screening.")
    application, _ = Application.objects.get_or_create(membership=membership)
    feedback = None
    status = 200
    if request.method == "POST":
        step = request.POST.get("step", "")
        try:
            if step == "screening":
                answers = {
                    c["code"]: request.POST.get(c["code"]) == "yes" if request.POST.get(c["code"]) else None
                    for c in setup.criteria
                }
                screening_submit(membership=membership, answers=answers, country=request.POST.get("country", ""))
            elif step == "training":
                feedback = training_submit(membership=membership, answers=_answers(request, setup.training_items))
            elif step == "pilot":
                pilot_submit(membership=membership, answers=_answers(request, setup.pilot_items))
            else:
                raise Http404("No such step.")
        except DomainError as exc:
            status = show_domain_error(request, exc)
        else:
            if feedback is None:
                return redirect("screening_page", slug=slug)
        application.refresh_from_db()
    training = list(zip(setup.training_items, feedback or [None] * len(setup.training_items), strict=True))
    country_scope = get_task_type(membership.project.task_type).country_scope
    countries = country_scope.countries if country_scope is not None else ()
    context = project_context(
        membership, setup=setup, application=application, feedback=feedback, training=training, countries=countries
    )
    return render(request, "annotation/screening_page.html", context, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def screening_applicants(request: HttpRequest, slug: str) -> HttpResponse:
    membership = membership_for(user=request.user, slug=slug, roles=ADMIN_ONLY)
    project = membership.project
    if request.method == "POST":
        target = get_object_or_404(Membership, project=project, pk=request.POST.get("membership_id") or 0)
        try:
            application_admit(membership=target, admin=request.user)
        except DomainError as exc:
            show_domain_error(request, exc)
        else:
            messages.success(
                request,
                gettext("%(get_username)s is admitted.") % {"get_username": target.code or target.user.get_username()},
            )
        return redirect("screening_applicants", slug=slug)
    context = project_context(membership, applicants=applications_for(project=project))
    return render(request, "annotation/screening_applicants.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def member_countries(request: HttpRequest, slug: str, membership_id: int) -> HttpResponse:
    """An admin ticks the countries a reviewer reviews for, among the project's countries."""
    membership = membership_for(user=request.user, slug=slug, roles=ADMIN_ONLY)
    target = get_object_or_404(Membership.objects.select_related("user"), project=membership.project, pk=membership_id)
    choices = review_country_choices(project=membership.project, current=target.countries)
    form = ReviewCountriesForm(request.POST or None, choices=choices, initial={"countries": target.countries})
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                member_set_countries(membership=target, countries=form.cleaned_data["countries"])
            except DomainError as exc:
                status = show_domain_error(request, exc)
            else:
                messages.success(request, gettext("Review countries saved."))
                return redirect("member_countries", slug=slug, membership_id=target.pk)
        else:
            status = 400
    context = project_context(membership, target=target, form=form)
    return render(request, "annotation/member_countries.html", context, status=status)


def _criteria_text(criteria: list[dict]) -> str:
    return "\n".join(f"{c['code']}: {c['question']}" for c in criteria)


def _parse_criteria(text: str) -> list[dict[str, str]]:
    rows = []
    for line in text.splitlines():
        code, sep, question = line.partition(":")
        if line.strip():
            rows.append({"code": code.strip() if sep else "", "question": question.strip()})
    return rows


def _item_formsets(request: HttpRequest, setup: ScreeningSetup | None):
    if request.method == "POST":
        return (
            ScreeningItemFormSet(request.POST, prefix="training"),
            ScreeningItemFormSet(request.POST, prefix="pilot"),
        )
    return (
        ScreeningItemFormSet(initial=initial_rows(setup.training_items if setup else []), prefix="training"),
        ScreeningItemFormSet(initial=initial_rows(setup.pilot_items if setup else []), prefix="pilot"),
    )


@login_required
@require_http_methods(["GET", "POST"])
def screening_setup(request: HttpRequest, slug: str) -> HttpResponse:
    """An admin requires (or not) screening, training and pilot, and sets their items and pass mark.

    "Preview" shows the items as an applicant will see them without saving anything."""
    membership = membership_for(user=request.user, slug=slug, roles=ADMIN_ONLY)
    project = membership.project
    setup = ScreeningSetup.objects.filter(project=project).first()
    training_forms, pilot_forms = _item_formsets(request, setup)
    status = 200
    preview = None
    if request.method == "POST":
        if not (training_forms.is_valid() and pilot_forms.is_valid()):
            messages.error(request, gettext("Some items are not valid; see the marked fields."))
            status = 400
        elif request.POST.get("action") == "preview":
            preview = {"training": items_of(training_forms), "pilot": items_of(pilot_forms)}
        else:
            try:
                screening_configure(
                    project=project,
                    required=request.POST.get("required") == "on",
                    criteria=_parse_criteria(request.POST.get("criteria", "")),
                    training_items=items_of(training_forms),
                    pilot_items=items_of(pilot_forms),
                    pilot_pass=int(request.POST.get("pilot_pass") or 0),
                    max_attempts=int(request.POST.get("max_attempts") or 1),
                )
            except (DomainError, ValueError) as exc:
                if isinstance(exc, ValueError):
                    exc = InvalidInput(gettext("Give whole numbers for the pass mark and the attempts."))
                status = show_domain_error(request, exc)
            else:
                messages.success(request, gettext("Screening saved."))
                return redirect("screening_setup", slug=slug)
    posted = request.POST if request.method == "POST" else None
    context = project_context(
        membership,
        required=(posted.get("required") == "on") if posted else (setup.required if setup else False),
        criteria=posted.get("criteria", "")
        if posted
        else _criteria_text(setup.criteria if setup else DEFAULT_CRITERIA),
        training_forms=training_forms,
        pilot_forms=pilot_forms,
        preview=preview,
        pilot_pass=posted.get("pilot_pass", "") if posted else (setup.pilot_pass if setup else 0),
        max_attempts=posted.get("max_attempts", "") if posted else (setup.max_attempts if setup else 2),
    )
    return render(request, "annotation/screening_setup.html", context, status=status)
