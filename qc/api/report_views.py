"""csqa reports, gold-set exports and id-csqa imports over the API (same services as the pages)."""

from __future__ import annotations

from django.http import FileResponse
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.response import Response

from annotation.api.permissions import ADMIN_ONLY, REVIEWERS
from annotation.api.views.base import ERROR, NOT_FOUND, REFUSED, ProjectApi, validated
from annotation.services.csqa_import import csqa_import
from qc.api.report_serializers import (
    CsqaImportInputSerializer,
    CsqaImportSummarySerializer,
    CsqaReportSerializer,
    ExportInputSerializer,
    ExportRunSerializer,
)
from qc.export_runs import export_run_create, export_runs_for_project
from qc.export_selectors import export_file_path, export_run_for_project
from qc.reports import csqa_report

RUNS_LISTED = 100
ADMIN_REFUSED = {**NOT_FOUND, 403: ERROR}


class CsqaReportApi(ProjectApi):
    project_roles = {"GET": REVIEWERS}

    @extend_schema(
        operation_id="reports_csqa",
        summary="Agreement, answer conflicts, per category and per annotator figures (reviewers, admins).",
        responses={200: CsqaReportSerializer, **ADMIN_REFUSED},
    )
    def get(self, request, slug):
        return Response(CsqaReportSerializer(csqa_report(project=self.project)).data)


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


class CsqaImportApi(ProjectApi):
    project_roles = {"POST": ADMIN_ONLY}
    parser_classes = [MultiPartParser, FormParser]

    @extend_schema(
        operation_id="imports_csqa",
        summary="Import an id-csqa file into this project: approved items with their answers (admins).",
        request={"multipart/form-data": CsqaImportInputSerializer},
        responses={201: CsqaImportSummarySerializer, **REFUSED},
    )
    def post(self, request, slug):
        data = validated(CsqaImportInputSerializer, request.data)
        language = data["language"] or (
            self.project.languages.order_by("position", "code").values_list("code", flat=True).first() or ""
        )
        summary = csqa_import(
            path_or_bytes=data["file"].read(),
            project_slug=self.project.slug,
            language=language,
            annotator_regions=data["annotator_regions"] or None,
            creator=request.user,
        )
        return Response(CsqaImportSummarySerializer(summary.as_dict()).data, status=status.HTTP_201_CREATED)
