from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.response import Response

from annotation.api.selectors import assignment_of, assignments_of, item_detail
from annotation.api.serializers import (
    AssignmentNextInputSerializer,
    AssignmentQuerySerializer,
    AssignmentSerializer,
    AuthoringInputSerializer,
    ItemDetailSerializer,
)
from annotation.api.views.base import ERROR, NOT_FOUND, REFUSED, ProjectApi, ProjectListApi, validated
from annotation.models import Assignment
from annotation.services.assignments import assignment_claim_next
from annotation.services.items import item_save_draft, item_submit

AUTHORING_REFUSED = {**REFUSED, 409: ERROR}


class AssignmentListApi(ProjectListApi):
    serializer_class = AssignmentSerializer

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return Assignment.objects.none()
        query = validated(AssignmentQuerySerializer, self.request.query_params)
        return assignments_of(membership=self.membership, kind=query.get("kind"), status=query.get("status"))

    @extend_schema(operation_id="assignments_list", summary="My assignments.", parameters=[AssignmentQuerySerializer])
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)


class AssignmentNextApi(ProjectApi):
    @extend_schema(
        operation_id="assignments_next",
        summary="Lease my next assignment of a kind; 204 when my queue is empty.",
        request=AssignmentNextInputSerializer,
        responses={200: AssignmentSerializer, 204: OpenApiResponse(description="Nothing left to do."), **NOT_FOUND},
    )
    def post(self, request, slug):
        data = validated(AssignmentNextInputSerializer, request.data)
        claimed = assignment_claim_next(project=self.project, user=request.user, kind=data["kind"])
        if claimed is None:
            return Response(status=status.HTTP_204_NO_CONTENT)
        assignment = assignment_of(membership=self.membership, assignment_id=claimed.pk)
        return Response(AssignmentSerializer(assignment).data)


class AssignmentDetailApi(ProjectApi):
    @extend_schema(operation_id="assignments_retrieve", responses={200: AssignmentSerializer, **NOT_FOUND})
    def get(self, request, slug, assignment_id):
        assignment = assignment_of(membership=self.membership, assignment_id=assignment_id)
        return Response(AssignmentSerializer(assignment).data)


class AssignmentDraftApi(ProjectApi):
    @extend_schema(
        operation_id="assignments_draft",
        summary="Save my work on an authoring assignment without submitting it.",
        request=AuthoringInputSerializer,
        responses={200: ItemDetailSerializer, **AUTHORING_REFUSED},
    )
    def put(self, request, slug, assignment_id):
        assignment = assignment_of(membership=self.membership, assignment_id=assignment_id)
        data = validated(AuthoringInputSerializer, request.data)
        item = item_save_draft(
            assignment_id=assignment.pk, user=request.user, data=data["payload"], justification=data["justification"]
        )
        return Response(ItemDetailSerializer(item_detail(membership=self.membership, item_id=item.pk)).data)


class AssignmentSubmitApi(ProjectApi):
    @extend_schema(
        operation_id="assignments_submit",
        summary="Submit the item for review (first time or after a revision request).",
        request=AuthoringInputSerializer,
        responses={200: ItemDetailSerializer, **AUTHORING_REFUSED},
    )
    def post(self, request, slug, assignment_id):
        assignment = assignment_of(membership=self.membership, assignment_id=assignment_id)
        data = validated(AuthoringInputSerializer, request.data)
        item = item_submit(
            assignment_id=assignment.pk, user=request.user, data=data["payload"], justification=data["justification"]
        )
        return Response(ItemDetailSerializer(item_detail(membership=self.membership, item_id=item.pk)).data)
