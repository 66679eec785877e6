"""Log in, log out, and the home page listing the user's projects."""

from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from annotation.models import Membership
from annotation.selectors import invitations_for_user, sees_whole_project

login = auth_views.LoginView.as_view(template_name="registration/login.html", redirect_authenticated_user=True)
logout = auth_views.LogoutView.as_view()


@login_required
@require_GET
def home(request: HttpRequest) -> HttpResponse:
    # Scoped by the user: only projects they are an active member of, with their role there.
    memberships = (
        Membership.objects.filter(user=request.user, is_active=True)
        .select_related("project")
        .order_by("project__name", "project_id")
    )
    invitations = invitations_for_user(user=request.user)
    # The dashboard is project-wide: no link for a national reviewer, who would be refused it.
    whole = {m.project_id for m in memberships if sees_whole_project(membership=m)}
    context = {"memberships": memberships, "invitations": invitations, "whole_project_ids": whole}
    return render(request, "annotation/project_list.html", context)
