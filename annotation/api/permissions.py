"""Who may call what.

Every project-scoped view resolves the caller's active membership through the selector, so a
non-member gets a 404 (the project's existence is not confirmed). A member whose role does not
allow the operation gets a 403: they can already see the project, so nothing leaks.
"""

from __future__ import annotations

from collections.abc import Mapping

from rest_framework.permissions import SAFE_METHODS, BasePermission

from annotation.models import Membership
from annotation.selectors import membership_for, whole_project_check

ADMIN_ONLY = (Membership.Role.ADMIN,)
REVIEWERS = (Membership.Role.ADMIN, Membership.Role.REVIEWER)


class HasProjectRole(BasePermission):
    """Sets `view.membership`; checks `view.project_roles[method]` (a method not listed: any member), and
    for a view of project-wide aggregates (`whole_project = True`) that the member sees the whole project."""

    code = "not_allowed"
    message = "Your role in this project does not allow this."

    def has_permission(self, request, view) -> bool:
        membership = membership_for(user=request.user, slug=view.kwargs["slug"])
        membership.user = request.user  # the same row: spare selectors a query for it
        view.membership = membership
        roles: Mapping[str, tuple[str, ...]] = getattr(view, "project_roles", {})
        # HEAD runs the GET handler, so it gets GET's rule.
        allowed = roles.get("GET" if request.method == "HEAD" else request.method)
        if allowed is not None and membership.role not in allowed:
            return False
        if getattr(view, "whole_project", False):
            whole_project_check(membership=membership)
        return True


class StaffMayCreate(BasePermission):
    """Anyone signed in may list; only site staff create projects (a project's admins are its members)."""

    code = "not_allowed"
    message = "Only staff can create projects."

    def has_permission(self, request, view) -> bool:
        return request.method in SAFE_METHODS or bool(request.user.is_staff)
