"""Reviews over the API: the queue, claiming the next item, the decision, the error taxonomy."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.response import Response

from annotation.api.permissions import REVIEWERS
from annotation.api.selectors import item_detail
from annotation.api.serializers import ItemDetailSerializer, ItemSerializer, ReviewSerializer
from annotation.api.views.base import ERROR, REFUSED, ProjectApi, ProjectListApi, validated
from annotation.models import Item
from annotation.selectors import item_for_member
from qc.api.selectors import error_types_of, review_queue
from qc.api.serializers import ErrorTypeSerializer, ReviewInputSerializer
from qc.models import ErrorType
from qc.services import review_claim_next, review_decide


class ReviewQueueApi(ProjectListApi):
    project_roles = {"GET": REVIEWERS}
    serializer_class = ItemSerializer

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return Item.objects.none()
        return review_queue(project=self.project, reviewer=self.request.user)

    @extend_schema(
        operation_id="reviews_queue",
        summary="Submitted items waiting for me, in the order `next` hands them out (reviewers, admins).",
    )
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)


class ReviewNextApi(ProjectApi):
    project_roles = {"POST": REVIEWERS}

    @extend_schema(
        operation_id="reviews_next",
        summary="Claim the next item to review; 204 when the queue is empty (reviewers, admins).",
        request=None,
        responses={200: ItemDetailSerializer, 204: OpenApiResponse(description="Queue empty."), **REFUSED},
    )
    def post(self, request, slug):
        item = review_claim_next(project=self.project, reviewer=request.user)
        if item is None:
            return Response(status=status.HTTP_204_NO_CONTENT)
        return Response(ItemDetailSerializer(item_detail(membership=self.membership, item_id=item.pk)).data)


class ReviewDecideApi(ProjectApi):
    project_roles = {"POST": REVIEWERS}

    @extend_schema(
        operation_id="items_review",
        summary="Decide on the item's current version: approve, request a revision, or reject.",
        request=ReviewInputSerializer,
        responses={201: ReviewSerializer, **REFUSED, 409: ERROR},
    )
    def post(self, request, slug, item_id):
        item = item_for_member(membership=self.membership, item_id=item_id)
        data = validated(ReviewInputSerializer, request.data)
        review = review_decide(
            item_id=item.pk,
            decision=data["decision"],
            version_id=data["version_id"],
            reviewer=request.user,
            feedback=data["feedback"],
            error_type_codes=data["error_types"],
        )
        return Response(ReviewSerializer(review).data, status=status.HTTP_201_CREATED)


class ErrorTypeListApi(ProjectListApi):
    serializer_class = ErrorTypeSerializer

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return ErrorType.objects.none()
        return error_types_of(project=self.project)

    @extend_schema(operation_id="error_types_list", summary="The project's QC error taxonomy.")
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)
