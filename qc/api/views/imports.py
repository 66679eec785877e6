"""File imports over the API (same service as the page)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.response import Response

from annotation.api.permissions import ADMIN_ONLY
from annotation.api.views.base import REFUSED, ProjectApi, validated
from annotation.errors import InvalidInput
from annotation.services.imports import import_formats, items_import
from qc.api.serializers import ItemsImportInputSerializer, ItemsImportSummarySerializer


class ItemsImportApi(ProjectApi):
    project_roles = {"POST": ADMIN_ONLY}
    parser_classes = [MultiPartParser, FormParser]

    @extend_schema(
        operation_id="imports_create",
        summary="Import a released file into this project: items with their authors and judgments (admins).",
        request={"multipart/form-data": ItemsImportInputSerializer},
        responses={201: ItemsImportSummarySerializer, **REFUSED},
    )
    def post(self, request, slug):
        data = validated(ItemsImportInputSerializer, request.data)
        formats = [f.name for f in import_formats(task_type=self.project.task_type)]
        fmt = data["format"] or (formats[0] if formats else "")
        if fmt not in formats:
            message = f"Use one of this project's import formats: {', '.join(formats) or 'none'}."
            raise InvalidInput(message, field_errors={"format": [message]})
        language = data["language"] or (
            self.project.languages.order_by("position", "code").values_list("code", flat=True).first() or ""
        )
        summary = items_import(
            path_or_bytes=data["file"],
            project_slug=self.project.slug,
            format=fmt,
            language=language,
            annotator_regions=data["annotator_regions"] or None,
            creator=request.user,
        )
        return Response(ItemsImportSummarySerializer(summary.as_dict()).data, status=status.HTTP_201_CREATED)
