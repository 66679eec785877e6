from dataclasses import asdict

from drf_spectacular.utils import extend_schema
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.response import Response

from annotation.api.permissions import ADMIN_ONLY
from annotation.api.selectors import concepts_of
from annotation.api.serializers import (
    CategorySerializer,
    ConceptImportInputSerializer,
    ConceptImportSummarySerializer,
    ConceptQuerySerializer,
    ConceptSerializer,
    PlanInputSerializer,
    PlanSummarySerializer,
)
from annotation.api.views.base import REFUSED, ProjectApi, ProjectListApi, validated
from annotation.models import Category, Concept
from annotation.selectors import categories_with_counts
from annotation.services.assignments import assignment_plan_authoring
from annotation.services.catalog import concepts_import


class CategoryListApi(ProjectListApi):
    serializer_class = CategorySerializer

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return Category.objects.none()
        return categories_with_counts(project=self.project)

    @extend_schema(operation_id="categories_list")
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)


class ConceptListApi(ProjectListApi):
    serializer_class = ConceptSerializer

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return Concept.objects.none()
        query = validated(ConceptQuerySerializer, self.request.query_params)
        return concepts_of(project=self.project, category_id=query.get("category"))

    @extend_schema(operation_id="concepts_list", parameters=[ConceptQuerySerializer])
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)


class ConceptImportApi(ProjectApi):
    project_roles = {"POST": ADMIN_ONLY}
    parser_classes = [MultiPartParser, FormParser]

    @extend_schema(
        operation_id="concepts_import",
        summary="Import categories x concepts (CSV or JSON Lines): all lines or nothing (project admins).",
        request={"multipart/form-data": ConceptImportInputSerializer},
        responses={201: ConceptImportSummarySerializer, **REFUSED},
    )
    def post(self, request, slug):
        data = validated(ConceptImportInputSerializer, request.data)
        upload = data["file"]
        summary = concepts_import(project=self.project, data=upload.read(), filename=upload.name, fmt=data["format"])
        return Response(ConceptImportSummarySerializer(asdict(summary)).data, status=201)


class AuthoringPlanApi(ProjectApi):
    project_roles = {"POST": ADMIN_ONLY}

    @extend_schema(
        operation_id="plans_authoring",
        summary="Plan authoring: each concept to k annotators, balanced; started work never moves.",
        request=PlanInputSerializer,
        responses={200: PlanSummarySerializer, **REFUSED},
    )
    def post(self, request, slug):
        data = validated(PlanInputSerializer, request.data)
        summary = assignment_plan_authoring(project=self.project, seed=data["seed"])
        return Response(PlanSummarySerializer(asdict(summary)).data)
