"""Project members: add (existing or new account), change role, deactivate; annotator profiles."""

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods

from annotation.errors import DomainError, InvalidInput
from annotation.forms import MemberAddForm, MemberRoleForm, ProfileForm, apply_domain_error
from annotation.models import AnnotatorProfile, Membership
from annotation.selectors import membership_for
from annotation.services.projects import (
    PROFILE_FIELDS,
    membership_add,
    membership_deactivate,
    profile_update,
    user_create,
)
from annotation.views.common import ADMIN_ONLY, posted, project_context, show_domain_error

User = get_user_model()


def _member_of(project, membership_id) -> Membership:
    try:
        pk = int(membership_id)
    except (TypeError, ValueError):
        raise Http404("No such member.") from None
    return get_object_or_404(Membership.objects.select_related("user"), project=project, pk=pk)


@transaction.atomic
def _add_member(*, project, data: dict) -> Membership:
    # Creating the account and the membership together: a refused membership leaves no stray account.
    if data["password"]:
        user = user_create(username=data["username"], password=data["password"])
    else:
        user = User.objects.filter(username=data["username"]).first()
        if user is None:
            raise InvalidInput(
                f"There is no user “{data['username']}”.",
                field_errors={"password": ["Give a password to create this account."]},
            )
    return membership_add(project=project, user=user, role=data["role"], code=data["code"].strip())


@login_required
@require_http_methods(["GET", "POST"])
def project_members(request: HttpRequest, slug: str) -> HttpResponse:
    membership = membership_for(user=request.user, slug=slug, roles=ADMIN_ONLY)
    project = membership.project
    action = request.POST.get("action", "")
    add_form = MemberAddForm(request.POST if action == "add" else None)
    status = 200
    if request.method == "POST":
        try:
            if action == "add":
                if not add_form.is_valid():
                    raise InvalidInput("Check the new member's details.")
                added = _add_member(project=project, data=add_form.cleaned_data)
                messages.success(request, f"{added.user.username} is now {added.get_role_display().lower()}.")
            elif action == "role":
                target = _member_of(project, request.POST.get("membership_id"))
                role_form = MemberRoleForm(request.POST)
                if not role_form.is_valid():
                    raise InvalidInput("Choose admin, reviewer or annotator.")
                if target.pk == membership.pk:
                    raise InvalidInput("You can't change your own role; ask another admin.")
                membership_add(project=project, user=target.user, role=role_form.cleaned_data["role"])
                messages.success(request, f"{target.user.username}'s role changed.")
            elif action == "deactivate":
                target = _member_of(project, request.POST.get("membership_id"))
                if target.pk == membership.pk:
                    raise InvalidInput("You can't remove yourself from the project; ask another admin.")
                membership_deactivate(membership=target)
                messages.success(request, f"{target.user.username} no longer works on this project.")
            else:
                raise InvalidInput("Unknown action.")
        except DomainError as exc:
            if action == "add":
                apply_domain_error(add_form, exc)
            status = show_domain_error(request, exc)
        else:
            return redirect("project_members", slug=slug)
    members = (
        Membership.objects.filter(project=project)
        .select_related("user", "user__profile")
        .order_by("-is_active", "role", "code", "user__username")
    )
    context = project_context(membership, members=members, add_form=add_form, roles=Membership.Role.choices)
    return render(request, "annotation/membership_list.html", context, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def member_profile(request: HttpRequest, slug: str, membership_id: int) -> HttpResponse:
    membership = membership_for(user=request.user, slug=slug, roles=ADMIN_ONLY)
    target = _member_of(membership.project, membership_id)
    profile = AnnotatorProfile.objects.filter(user=target.user).first()
    initial = {field: getattr(profile, field) for field in PROFILE_FIELDS} if profile else {}
    form = ProfileForm(posted(request), initial=initial)
    status = 200
    if request.method == "POST" and form.is_valid():
        try:
            profile_update(user=target.user, **form.cleaned_data)
        except InvalidInput as exc:
            apply_domain_error(form, exc)
            status = show_domain_error(request, exc)
        else:
            messages.success(request, f"Profile of {target.user.username} saved.")
            return redirect("project_members", slug=slug)
    elif request.method == "POST":
        status = 400
    context = project_context(membership, target=target, form=form)
    return render(request, "annotation/membership_profile.html", context, status=status)
