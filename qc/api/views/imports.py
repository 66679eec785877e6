"""id-csqa imports over the API (same service as the page)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.response import Response

from annotation.api.permissions import ADMIN_ONLY
from annotation.api.views.base import REFUSED, ProjectApi, validated
from annotation.services.csqa_import import csqa_import
from qc.api.serializers import CsqaImportInputSerializer, CsqaImportSummarySerializer


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
