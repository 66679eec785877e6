"""The project's QC dashboard over the API."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework.response import Response

from annotation.api.permissions import REVIEWERS
from annotation.api.views.base import ERROR, NOT_FOUND, ProjectApi
from qc.api.serializers import DashboardSerializer
from qc.selectors import dashboard_stats


class DashboardApi(ProjectApi):
    project_roles = {"GET": REVIEWERS}
    whole_project = True

    @extend_schema(
        operation_id="dashboard",
        summary="Progress per annotator x category, items by status, QC error types per annotator.",
        responses={200: DashboardSerializer, **NOT_FOUND, 403: ERROR},
    )
    def get(self, request, slug):
        return Response(DashboardSerializer(dashboard_stats(project=self.project)).data)
