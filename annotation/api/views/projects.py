from drf_spectacular.utils import extend_schema
from rest_framework import generics, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response

from annotation.api.permissions import ADMIN_ONLY, StaffMayCreate
from annotation.api.selectors import projects_with_role
from annotation.api.serializers import ProjectCreateInputSerializer, ProjectSerializer, ProjectUpdateInputSerializer
from annotation.api.views.base import AUTHENTICATION, ERROR, NOT_FOUND, REFUSED, ProjectApi, validated
from annotation.models import Membership, Project
from annotation.services.projects import project_create, project_update


class ProjectListCreateApi(generics.ListAPIView):
    authentication_classes = AUTHENTICATION
    permission_classes = [IsAuthenticated, StaffMayCreate]
    serializer_class = ProjectSerializer

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return Project.objects.none()
        return projects_with_role(user=self.request.user)

    @extend_schema(operation_id="projects_list", summary="The projects I am an active member of.")
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)

    @extend_schema(
        operation_id="projects_create",
        summary="Create a project (site staff); the creator becomes its admin.",
        request=ProjectCreateInputSerializer,
        responses={201: ProjectSerializer, 400: ERROR, 403: ERROR},
    )
    def post(self, request):
        data = validated(ProjectCreateInputSerializer, request.data)
        settings = data.pop("settings", {})
        project = project_create(creator=request.user, **data, **settings)
        return Response(ProjectSerializer(project, context={"role": Membership.Role.ADMIN}).data, status=201)


class ProjectDetailApi(ProjectApi):
    project_roles = {"PATCH": ADMIN_ONLY}

    @extend_schema(operation_id="projects_retrieve", responses={200: ProjectSerializer, **NOT_FOUND})
    def get(self, request, slug):
        return Response(ProjectSerializer(self.project, context={"role": self.membership.role}).data)

    @extend_schema(
        operation_id="projects_update",
        summary="Change a project's settings (project admins).",
        request=ProjectUpdateInputSerializer,
        responses={200: ProjectSerializer, **REFUSED},
    )
    def patch(self, request, slug):
        data = validated(ProjectUpdateInputSerializer, request.data)
        settings = data.pop("settings", {})
        project = project_update(project=self.project, **data, **settings)
        return Response(
            ProjectSerializer(project, context={"role": self.membership.role}).data, status=status.HTTP_200_OK
        )
