"""Gold-set exports over the API (same services as the page)."""

from __future__ import annotations

from django.http import FileResponse
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.response import Response

from annotation.api.permissions import ADMIN_ONLY
from annotation.api.views.base import ERROR, NOT_FOUND, REFUSED, ProjectApi, validated
from qc.api.serializers import ExportInputSerializer, ExportRunSerializer
from qc.exports.runs import export_run_create, export_runs_for_project
from qc.exports.selectors import export_file_path, export_run_for_project

RUNS_LISTED = 100
ADMIN_REFUSED = {**NOT_FOUND, 403: ERROR}


class ExportListCreateApi(ProjectApi):
    project_roles = {"GET": ADMIN_ONLY, "POST": ADMIN_ONLY}

    @extend_schema(
        operation_id="exports_list",
        summary="The project's gold-set exports, newest first (admins).",
        responses={200: ExportRunSerializer(many=True), **ADMIN_REFUSED},
    )
    def get(self, request, slug):
        runs = export_runs_for_project(project=self.project)[:RUNS_LISTED]
        return Response(ExportRunSerializer(runs, many=True, context={"slug": slug}).data)

    @extend_schema(
        operation_id="exports_create",
        summary="Start a gold-set export in the background; poll the run for its progress (admins).",
        request=ExportInputSerializer,
        responses={202: ExportRunSerializer, **REFUSED},
    )
    def post(self, request, slug):
        data = validated(ExportInputSerializer, request.data)
        run = export_run_create(project=self.project, fmt=data["format"], user=request.user)
        # Read again: without a broker the export has already run by now.
        run = export_run_for_project(project=self.project, run_id=run.pk)
        return Response(ExportRunSerializer(run, context={"slug": slug}).data, status=status.HTTP_202_ACCEPTED)


class ExportDetailApi(ProjectApi):
    project_roles = {"GET": ADMIN_ONLY}

    @extend_schema(operation_id="exports_retrieve", responses={200: ExportRunSerializer, **ADMIN_REFUSED})
    def get(self, request, slug, run_id):
        run = export_run_for_project(project=self.project, run_id=run_id)
        return Response(ExportRunSerializer(run, context={"slug": slug}).data)


class ExportFileApi(ProjectApi):
    project_roles = {"GET": ADMIN_ONLY}

    @extend_schema(
        operation_id="exports_file",
        summary="Download one file of a finished export (admins).",
        responses={200: OpenApiResponse(description="The file."), **ADMIN_REFUSED},
    )
    def get(self, request, slug, run_id, name):
        run = export_run_for_project(project=self.project, run_id=run_id)
        path = export_file_path(run=run, name=name)
        return FileResponse(path.open("rb"), as_attachment=True, filename=f"{slug}-export-{run.pk}-{name}")
