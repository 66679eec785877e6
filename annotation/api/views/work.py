"""Work is never lost, over the API: the authoring autosave (a draft of unvalidated fields, kept per
assignment) and skipping an authoring or judging assignment with a reason. Same services as the pages."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.response import Response

from annotation.api.selectors import assignment_of
from annotation.api.serializers.work import (
    AutosaveInputSerializer,
    AutosaveSerializer,
    SkipInputSerializer,
    SkipSerializer,
)
from annotation.api.views.base import ERROR, NOT_FOUND, REFUSED, ProjectApi, validated
from annotation.services.drafts import clean_fields, work_draft_for, work_draft_save
from annotation.services.skips import assignment_skip

WORK_REFUSED = {**REFUSED, 409: ERROR}


class AutosaveApi(ProjectApi):
    @extend_schema(
        operation_id="assignments_autosave_retrieve",
        summary="My autosaved draft of an authoring assignment; 204 when there is none.",
        responses={200: AutosaveSerializer, 204: OpenApiResponse(description="No draft."), **NOT_FOUND},
    )
    def get(self, request, slug, assignment_id):
        assignment = assignment_of(membership=self.membership, assignment_id=assignment_id)
        draft = work_draft_for(assignment=assignment)
        if draft is None:
            return Response(status=status.HTTP_204_NO_CONTENT)
        return Response(AutosaveSerializer(draft).data)

    @extend_schema(
        operation_id="assignments_autosave",
        summary="Keep the authoring form's fields unvalidated (never over a submitted item).",
        request=AutosaveInputSerializer,
        responses={200: AutosaveSerializer, **WORK_REFUSED},
    )
    def put(self, request, slug, assignment_id):
        assignment = assignment_of(membership=self.membership, assignment_id=assignment_id)
        given = validated(AutosaveInputSerializer, request.data)["fields"]
        fields = clean_fields([(name, v if isinstance(v, list) else [v]) for name, v in given.items()])
        draft = work_draft_save(assignment_id=assignment.pk, user=request.user, fields=fields)
        return Response(AutosaveSerializer(draft).data)


class SkipApi(ProjectApi):
    @extend_schema(
        operation_id="assignments_skip",
        summary="Give my open authoring or judging assignment back with a reason; someone else gets the unit.",
        request=SkipInputSerializer,
        responses={200: SkipSerializer, **WORK_REFUSED},
    )
    def post(self, request, slug, assignment_id):
        assignment = assignment_of(membership=self.membership, assignment_id=assignment_id)
        data = validated(SkipInputSerializer, request.data)
        skip = assignment_skip(assignment_id=assignment.pk, user=request.user, reason=data["reason"], note=data["note"])
        return Response(SkipSerializer(skip).data)
