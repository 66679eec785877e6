"""csqa reports over the API (same selectors as the page)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework.response import Response

from annotation.api.permissions import REVIEWERS
from annotation.api.views.base import ERROR, NOT_FOUND, ProjectApi
from qc.api.serializers import CsqaReportSerializer
from qc.reports import csqa_report

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
