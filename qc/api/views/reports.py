"""Reports over the API (the same engine as the page): the project's report, and per task type the
sections alone under /reports/<task type name>/ (the older address of the first task type's report)."""

from __future__ import annotations

from django.http import Http404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework.response import Response

from annotation.api.permissions import REVIEWERS
from annotation.api.views.base import ERROR, NOT_FOUND, ProjectApi
from annotation.task_types import get_task_type
from qc.reports import model_ranking_report
from qc.reports.snapshots import PageReport, report_for_page

ADMIN_REFUSED = {**NOT_FOUND, 403: ERROR}


def _has_report(project) -> None:
    if not get_task_type(project.task_type).report_template:
        raise Http404("This project has no report.")


def _still_building(page: PageReport) -> Response:
    # A big project's first report is still being built in the background (qc.reports.snapshots).
    stage = page.snapshot.stage if page.snapshot is not None else ""
    return Response({"building": True, "stage": stage}, status=202, headers={"Retry-After": "10"})


BUILDING = {202: OpenApiTypes.OBJECT}


class ReportApi(ProjectApi):
    project_roles = {"GET": REVIEWERS}
    whole_project = True

    @extend_schema(
        operation_id="reports_project",
        summary="The project's report: project, task_type, the task type's sections under its name, and "
        "model_ranking where the project's models are ranked (null before the first fit).",
        responses={200: OpenApiTypes.OBJECT, **BUILDING, **ADMIN_REFUSED},
    )
    def get(self, request, slug):
        _has_report(self.project)
        page = report_for_page(project=self.project)
        if page.report is None:
            return _still_building(page)
        sections = {k: v for k, v in page.report.items() if k != "project"}
        task_type = get_task_type(self.project.task_type)
        return Response(
            {
                "project": self.project.slug,
                "task_type": self.project.task_type,
                (task_type.report_section or self.project.task_type): sections,
                **model_ranking_report(project=self.project),
            }
        )


class TaskTypeReportApi(ProjectApi):
    project_roles = {"GET": REVIEWERS}
    whole_project = True
    task_type = ""  # set per route (qc.api.urls builds one per registered task type)

    @extend_schema(
        summary="The task type's report sections with the project's slug (reviewers, admins).",
        responses={200: OpenApiTypes.OBJECT, **BUILDING, **ADMIN_REFUSED},
    )
    def get(self, request, slug):
        _has_report(self.project)
        if self.project.task_type != self.task_type:
            raise Http404("This project has another task type.")
        page = report_for_page(project=self.project)
        if page.report is None:
            return _still_building(page)
        return Response(page.report)
