"""Log in, log out, and the home page listing the user's projects."""

from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from annotation.selectors import invitations_for_user, sees_whole_project
from annotation.selectors.home import home_waiting

login = auth_views.LoginView.as_view(template_name="registration/login.html", redirect_authenticated_user=True)
logout = auth_views.LogoutView.as_view()


@login_required
@require_GET
def home(request: HttpRequest) -> HttpResponse:
    # Scoped by the user: only projects they are an active member of, with what waits for them there.
    waiting = home_waiting(user=request.user)
    invitations = invitations_for_user(user=request.user)
    # The dashboard is project-wide: no link for a national reviewer, who would be refused it.
    whole = {w.membership.project_id for w in waiting if sees_whole_project(membership=w.membership)}
    context = {"waiting": waiting, "invitations": invitations, "whole_project_ids": whole}
    return render(request, "annotation/project_list.html", context)
