from drf_spectacular.utils import extend_schema
from rest_framework.response import Response

from annotation.api.permissions import ADMIN_ONLY
from annotation.api.selectors import member_of, members_of
from annotation.api.serializers import (
    MemberAddInputSerializer,
    MembershipSerializer,
    MemberUpdateInputSerializer,
    ProfileSerializer,
)
from annotation.api.services import member_add, member_update
from annotation.api.views.base import REFUSED, ProjectApi, ProjectListApi, validated
from annotation.models import AnnotatorProfile, Membership
from annotation.services.projects import profile_update


class MemberListAddApi(ProjectListApi):
    project_roles = {"GET": ADMIN_ONLY, "POST": ADMIN_ONLY}
    serializer_class = MembershipSerializer

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return Membership.objects.none()
        return members_of(project=self.project)

    @extend_schema(operation_id="members_list", summary="Every member, active or not (project admins).")
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)

    @extend_schema(
        operation_id="members_add",
        summary="Add an existing user, or create one when a password is given (project admins).",
        request=MemberAddInputSerializer,
        responses={201: MembershipSerializer, **REFUSED},
    )
    def post(self, request, slug):
        data = validated(MemberAddInputSerializer, request.data)
        membership = member_add(project=self.project, **data)
        return Response(MembershipSerializer(membership).data, status=201)


class MemberUpdateApi(ProjectApi):
    project_roles = {"PATCH": ADMIN_ONLY}

    @extend_schema(
        operation_id="members_update",
        summary="Change a member's role, or deactivate / reactivate them (project admins).",
        request=MemberUpdateInputSerializer,
        responses={200: MembershipSerializer, **REFUSED},
    )
    def patch(self, request, slug, membership_id):
        membership = member_of(project=self.project, membership_id=membership_id)
        data = validated(MemberUpdateInputSerializer, request.data)
        membership = member_update(membership=membership, **data)
        return Response(MembershipSerializer(membership).data)


class MemberProfileApi(ProjectApi):
    project_roles = {"GET": ADMIN_ONLY, "PUT": ADMIN_ONLY}

    @extend_schema(operation_id="members_profile_retrieve", responses={200: ProfileSerializer, **REFUSED})
    def get(self, request, slug, membership_id):
        membership = member_of(project=self.project, membership_id=membership_id)
        profile = AnnotatorProfile.objects.filter(user_id=membership.user_id).first() or AnnotatorProfile()
        return Response(ProfileSerializer(profile).data)

    @extend_schema(
        operation_id="members_profile_update",
        summary="Replace a member's annotator profile (project admins); a field left out is cleared.",
        request=ProfileSerializer,
        responses={200: ProfileSerializer, **REFUSED},
    )
    def put(self, request, slug, membership_id):
        membership = member_of(project=self.project, membership_id=membership_id)
        data = validated(ProfileSerializer, request.data)
        profile = profile_update(user=membership.user, **data)
        return Response(ProfileSerializer(profile).data)
