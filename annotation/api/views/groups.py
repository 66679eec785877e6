"""A member's rater group (Membership.group, e.g. IndoPref's A/B) over the API, as on the rater-groups page."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response

from annotation.api.selectors import member_of
from annotation.api.views.base import REFUSED, ProjectApi, validated
from annotation.selectors import ADMIN
from annotation.services.members import member_set_group


class GroupSerializer(serializers.Serializer):
    group = serializers.CharField(allow_blank=True, max_length=100)


class MemberGroupApi(ProjectApi):
    project_roles = {"GET": (ADMIN,), "PUT": (ADMIN,)}

    @extend_schema(
        operation_id="member_group",
        summary="A member's rater group (admins).",
        responses={200: GroupSerializer, **REFUSED},
    )
    def get(self, request, slug, membership_id):
        return Response({"group": member_of(project=self.project, membership_id=membership_id).group})

    @extend_schema(
        operation_id="member_group_set",
        summary="Put a member in a rater group, '' for none (admins); the next judging plan uses it.",
        request=GroupSerializer,
        responses={200: GroupSerializer, **REFUSED},
    )
    def put(self, request, slug, membership_id):
        data = validated(GroupSerializer, request.data)
        target = member_set_group(
            membership=member_of(project=self.project, membership_id=membership_id), group=data["group"]
        )
        return Response({"group": target.group})
