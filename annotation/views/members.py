"""Project members: invite or add, change role, deactivate; each member's profile for this project;
the invitations a person has received."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods, require_POST

from annotation.errors import DomainError, InvalidInput
from annotation.forms import MemberAddForm, MemberRoleForm, ProfileForm, apply_domain_error
from annotation.models import AnnotatorProfile, Invitation, Membership
from annotation.selectors import invitation_for_user, membership_for
from annotation.services.known_answers import member_resume
from annotation.services.members import (
    invitation_accept,
    invitation_decline,
    invitation_withdraw,
    member_add,
    member_update,
)
from annotation.services.projects import PROFILE_FIELDS, profile_update
from annotation.views.common import ADMIN_ONLY, ANY_ROLE, posted, project_context, show_domain_error


def _member_of(project, membership_id) -> Membership:
    try:
        pk = int(membership_id)
    except (TypeError, ValueError):
        raise Http404("No such member.") from None
    return get_object_or_404(Membership.objects.select_related("user"), project=project, pk=pk)


@login_required
@require_http_methods(["GET", "POST"])
def project_members(request: HttpRequest, slug: str) -> HttpResponse:
    membership = membership_for(user=request.user, slug=slug, roles=ADMIN_ONLY)
    project = membership.project
    action = request.POST.get("action", "")
    add_form = MemberAddForm(request.POST if action == "add" else None)
    if not request.user.is_staff:
        del add_form.fields["password"]  # accounts are created by platform admins; others invite
    status = 200
    if request.method == "POST":
        try:
            if action == "add":
                if not add_form.is_valid():
                    raise InvalidInput(gettext("Check the new member's details."))
                result = member_add(project=project, actor=request.user, **add_form.cleaned_data)
                messages.success(request, result.message)
            elif action == "role":
                target = _member_of(project, request.POST.get("membership_id"))
                role_form = MemberRoleForm(request.POST)
                if not role_form.is_valid():
                    raise InvalidInput(gettext("Choose admin, reviewer or annotator."))
                member_update(membership=target, actor=request.user, role=role_form.cleaned_data["role"])
                messages.success(request, gettext("%(username)s's role changed.") % {"username": target.user.username})
            elif action == "deactivate":
                target = _member_of(project, request.POST.get("membership_id"))
                member_update(membership=target, actor=request.user, is_active=False)
                messages.success(
                    request,
                    gettext("%(username)s no longer works on this project.") % {"username": target.user.username},
                )
            elif action == "resume":
                target = _member_of(project, request.POST.get("membership_id"))
                member_resume(membership=target, actor=request.user)
                messages.success(request, gettext("%(username)s can work again.") % {"username": target.user.username})
            elif action == "withdraw":
                invitation = invitation_withdraw(
                    invitation_id=_invitation_id(request.POST.get("invitation_id")), project=project
                )
                messages.success(
                    request, gettext("Invitation for “%(username)s” withdrawn.") % {"username": invitation.username}
                )
            else:
                raise InvalidInput(gettext("Unknown action."))
        except DomainError as exc:
            if action == "add":
                apply_domain_error(add_form, exc)
            status = show_domain_error(request, exc)
        else:
            return redirect("project_members", slug=slug)
    members = (
        Membership.objects.filter(project=project)
        .select_related("user", "profile")
        .order_by("-is_active", "role", "code", "user__username")
    )
    invitations = Invitation.objects.filter(project=project, status=Invitation.Status.PENDING).order_by("username")
    context = project_context(
        membership,
        members=members,
        invitations=invitations,
        add_form=add_form,
        roles=Membership.Role.choices,
        can_create_accounts=request.user.is_staff,
    )
    return render(request, "annotation/membership_list.html", context, status=status)


def _invitation_id(value) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        raise InvalidInput(gettext("No such invitation.")) from None


def _profile_page(request: HttpRequest, membership: Membership, target: Membership, *, back: str) -> HttpResponse:
    profile = AnnotatorProfile.objects.filter(membership=target).first()
    initial = {field: getattr(profile, field) for field in PROFILE_FIELDS} if profile else {}
    form = ProfileForm(posted(request), initial=initial)
    status = 200
    if request.method == "POST" and form.is_valid():
        try:
            profile_update(membership=target, actor=membership, **form.cleaned_data)
        except InvalidInput as exc:
            apply_domain_error(form, exc)
            status = show_domain_error(request, exc)
        else:
            messages.success(request, gettext("Profile of %(username)s saved.") % {"username": target.user.username})
            return redirect(back, slug=membership.project.slug)
    elif request.method == "POST":
        status = 400
    context = project_context(membership, target=target, form=form, back=back)
    return render(request, "annotation/membership_profile.html", context, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def member_profile(request: HttpRequest, slug: str, membership_id: int) -> HttpResponse:
    """A project admin edits what a member told this project (never another project's record)."""
    membership = membership_for(user=request.user, slug=slug, roles=ADMIN_ONLY)
    target = _member_of(membership.project, membership_id)
    return _profile_page(request, membership, target, back="project_members")


@login_required
@require_http_methods(["GET", "POST"])
def my_profile(request: HttpRequest, slug: str) -> HttpResponse:
    """A member edits what they tell this project about themselves."""
    membership = membership_for(user=request.user, slug=slug, roles=ANY_ROLE)
    return _profile_page(request, membership, membership, back="project_detail")


@login_required
@require_POST
def invitation_answer(request: HttpRequest, invitation_id: int, answer: str) -> HttpResponse:
    invitation = invitation_for_user(user=request.user, invitation_id=invitation_id)
    try:
        if answer == "accept":
            joined = invitation_accept(invitation_id=invitation.pk, user=request.user)
            messages.success(
                request,
                gettext("You joined %(name)s as %(get_role_display)s.")
                % {"name": joined.project.name, "get_role_display": joined.get_role_display().lower()},
            )
            return redirect("project_detail", slug=joined.project.slug)
        invitation_decline(invitation_id=invitation.pk, user=request.user)
        messages.success(request, gettext("Invitation to %(name)s declined.") % {"name": invitation.project.name})
    except DomainError as exc:
        show_domain_error(request, exc)
    return redirect("home")
