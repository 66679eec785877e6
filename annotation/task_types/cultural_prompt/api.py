"""KALAHI variant requests over the API (admins), as on the variants page: POST asks for a variant of an
approved base prompt (variants.variant_request), GET lists the base prompts with their variants and
requests."""

from __future__ import annotations

from django.http import Http404
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response

from annotation.api.views.base import REFUSED, ProjectApi, validated
from annotation.selectors import ADMIN
from annotation.task_types.cultural_prompt.variants import TASK_TYPE, base_id, variant_overview, variant_request


class VariantRequestInputSerializer(serializers.Serializer):
    base_item = serializers.IntegerField(help_text=gettext_lazy("The approved base prompt's item id."))
    writer = serializers.IntegerField(
        required=False,
        allow_null=True,
        help_text=gettext_lazy("The writer's user id; left out, the free writer with least work."),
    )


class VariantRequestSerializer(serializers.Serializer):
    assignment = serializers.IntegerField()
    writer = serializers.IntegerField()
    base_item = serializers.IntegerField()
    prompt_id = serializers.CharField()
    status = serializers.CharField()


class PendingVariantSerializer(serializers.Serializer):
    assignment = serializers.IntegerField()
    writer = serializers.CharField(help_text=gettext_lazy("The writer's annotator code (or user name)."))
    status = serializers.CharField()


class VariantOverviewSerializer(serializers.Serializer):
    base_item = serializers.IntegerField()
    prompt_id = serializers.CharField()
    unit = serializers.CharField(help_text=gettext_lazy("category · topic"))
    variants = serializers.IntegerField()
    approved_variants = serializers.IntegerField()
    requests = PendingVariantSerializer(many=True)
    reviewer_asked = serializers.BooleanField()


class VariantRequestApi(ProjectApi):
    project_roles = {"GET": (ADMIN,), "POST": (ADMIN,)}

    def _check(self) -> None:
        if self.project.task_type != TASK_TYPE:
            raise Http404("This project has no prompt variants.")

    @extend_schema(
        operation_id="kalahi_variants",
        summary="Approved base prompts, their variants and requests.",
        responses={200: VariantOverviewSerializer(many=True)},
    )
    def get(self, request, slug):
        self._check()
        rows = [
            {
                "base_item": row["item"].pk,
                "prompt_id": row["prompt_id"],
                "unit": row["unit"],
                "variants": row["variants"],
                "approved_variants": row["approved_variants"],
                "requests": row["requests"],
                "reviewer_asked": row["reviewer_asked"],
            }
            for row in variant_overview(project=self.project)
        ]
        return Response(rows)

    @extend_schema(
        operation_id="kalahi_variant_request",
        summary="Ask for a variant of an approved base prompt (admins): an authoring assignment for a writer.",
        request=VariantRequestInputSerializer,
        responses={201: VariantRequestSerializer, **REFUSED},
    )
    def post(self, request, slug):
        self._check()
        data = validated(VariantRequestInputSerializer, request.data)
        assignment = variant_request(project=self.project, base_item_id=data["base_item"], writer_id=data.get("writer"))
        return Response(
            {
                "assignment": assignment.pk,
                "writer": assignment.user_id,
                "base_item": assignment.target_item_id,
                "prompt_id": base_id(assignment.target_item),
                "status": assignment.status,
            },
            status=status.HTTP_201_CREATED,
        )
