"""What every project-scoped API view shares: the caller's membership, resolved before the handler."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import inline_serializer
from rest_framework import generics, serializers
from rest_framework.authentication import SessionAuthentication
from rest_framework.permissions import IsAuthenticated
from rest_framework.views import APIView

from annotation.api.authentication import TokenAuthentication
from annotation.api.permissions import HasProjectRole
from annotation.models import Membership, Project

# Documents the single error shape of annotation.api.errors.
ERROR = inline_serializer(
    name="Error",
    fields={
        "detail": serializers.CharField(),
        "code": serializers.CharField(),
        "errors": serializers.DictField(child=serializers.ListField(child=serializers.CharField()), required=False),
    },
)
NOT_FOUND = {404: ERROR}
# Token first: an anonymous caller then gets 401 with `WWW-Authenticate: Token`, not a bare 403.
# Session auth (the pages' login) stays, and with it DRF's CSRF check on unsafe methods.
AUTHENTICATION = [TokenAuthentication, SessionAuthentication]
REFUSED = {400: ERROR, 403: ERROR, 404: ERROR}


class ProjectScoped:
    authentication_classes = AUTHENTICATION
    # IsAuthenticated first: an anonymous caller is told to authenticate, not that the project is missing.
    permission_classes = [IsAuthenticated, HasProjectRole]
    # method -> roles allowed; a method not listed is open to every active member.
    project_roles: dict[str, tuple[str, ...]] = {}
    # Project-wide aggregates (report, dashboard): refused to a member who sees a part of the project.
    whole_project = False
    membership: Membership

    @property
    def project(self) -> Project:
        return self.membership.project


class ProjectApi(ProjectScoped, APIView):
    pass


class ProjectListApi(ProjectScoped, generics.ListAPIView):
    pass


def validated(serializer_class: type[serializers.Serializer], data: Any, **kwargs: Any) -> dict[str, Any]:
    """Run an input serializer; a bad shape becomes a 400 before any service is called."""
    serializer = serializer_class(data=data, **kwargs)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)
