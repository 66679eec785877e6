"""A member's rater group (Membership.group, e.g. IndoPref's A/B) over the API, as on the rater-groups page."""

from __future__ import annotations

from django.http import Http404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response

from annotation.api.views.base import REFUSED, ProjectApi, validated
from annotation.models import Membership
from annotation.selectors import ADMIN
from annotation.services.members import member_set_group


class GroupSerializer(serializers.Serializer):
    group = serializers.CharField(allow_blank=True, max_length=100)


class MemberGroupApi(ProjectApi):
    project_roles = {"GET": (ADMIN,), "PUT": (ADMIN,)}

    def _target(self, membership_id: int) -> Membership:
        target = Membership.objects.filter(project=self.project, pk=membership_id).first()
        if target is None:
            raise Http404("No such member.")
        return target

    @extend_schema(
        operation_id="member_group",
        summary="A member's rater group (admins).",
        responses={200: GroupSerializer, **REFUSED},
    )
    def get(self, request, slug, membership_id):
        return Response({"group": self._target(membership_id).group})

    @extend_schema(
        operation_id="member_group_set",
        summary="Put a member in a rater group, '' for none (admins); the next judging plan uses it.",
        request=GroupSerializer,
        responses={200: GroupSerializer, **REFUSED},
    )
    def put(self, request, slug, membership_id):
        data = validated(GroupSerializer, request.data)
        target = member_set_group(membership=self._target(membership_id), group=data["group"])
        return Response({"group": target.group})
