from drf_spectacular.utils import extend_schema
from rest_framework.generics import ListAPIView
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from annotation.api.permissions import ADMIN_ONLY
from annotation.api.selectors import member_of, members_of
from annotation.api.serializers import (
    InvitationSerializer,
    MemberAddInputSerializer,
    MembershipSerializer,
    MemberUpdateInputSerializer,
    ProfileSerializer,
)
from annotation.api.views.base import AUTHENTICATION, REFUSED, ProjectApi, ProjectListApi, validated
from annotation.models import AnnotatorProfile, Invitation, Membership
from annotation.selectors import invitation_for_user, invitations_for_user
from annotation.services.members import (
    invitation_accept,
    invitation_decline,
    invitation_withdraw,
    member_add,
    member_update,
)
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
        summary=(
            "Invite a user name (202, the same answer whether or not the account exists); platform admins "
            "attach an existing account or create one with a password (201)."
        ),
        request=MemberAddInputSerializer,
        responses={201: MembershipSerializer, 202: InvitationSerializer, **REFUSED},
    )
    def post(self, request, slug):
        data = validated(MemberAddInputSerializer, request.data)
        result = member_add(project=self.project, actor=request.user, **data)
        if result.membership is not None:
            return Response(MembershipSerializer(result.membership).data, status=201)
        return Response(InvitationSerializer(result.invitation).data, status=202)


class MemberUpdateApi(ProjectApi):
    project_roles = {"PATCH": ADMIN_ONLY}

    @extend_schema(
        operation_id="members_update",
        summary="Change a member's role, or deactivate / reactivate them (project admins; not yourself).",
        request=MemberUpdateInputSerializer,
        responses={200: MembershipSerializer, **REFUSED},
    )
    def patch(self, request, slug, membership_id):
        membership = member_of(project=self.project, membership_id=membership_id)
        data = validated(MemberUpdateInputSerializer, request.data)
        membership = member_update(membership=membership, actor=request.user, **data)
        return Response(MembershipSerializer(membership).data)


def _profile_of(membership: Membership) -> AnnotatorProfile:
    return AnnotatorProfile.objects.filter(membership=membership).first() or AnnotatorProfile()


class MemberProfileApi(ProjectApi):
    project_roles = {"GET": ADMIN_ONLY, "PUT": ADMIN_ONLY}

    @extend_schema(
        operation_id="members_profile_retrieve",
        summary="What the member told this project (project admins).",
        responses={200: ProfileSerializer, **REFUSED},
    )
    def get(self, request, slug, membership_id):
        membership = member_of(project=self.project, membership_id=membership_id)
        return Response(ProfileSerializer(_profile_of(membership)).data)

    @extend_schema(
        operation_id="members_profile_update",
        summary="Replace a member's profile in this project (project admins); a field left out is cleared.",
        request=ProfileSerializer,
        responses={200: ProfileSerializer, **REFUSED},
    )
    def put(self, request, slug, membership_id):
        membership = member_of(project=self.project, membership_id=membership_id)
        data = validated(ProfileSerializer, request.data)
        return Response(ProfileSerializer(profile_update(membership=membership, actor=self.membership, **data)).data)


class MyProfileApi(ProjectApi):
    @extend_schema(
        operation_id="my_profile_retrieve",
        summary="What you told this project about yourself.",
        responses={200: ProfileSerializer, **REFUSED},
    )
    def get(self, request, slug):
        return Response(ProfileSerializer(_profile_of(self.membership)).data)

    @extend_schema(
        operation_id="my_profile_update",
        summary="Replace what you tell this project about yourself; a field left out is cleared.",
        request=ProfileSerializer,
        responses={200: ProfileSerializer, **REFUSED},
    )
    def put(self, request, slug):
        data = validated(ProfileSerializer, request.data)
        profile = profile_update(membership=self.membership, actor=self.membership, **data)
        return Response(ProfileSerializer(profile).data)


class ProjectInvitationListApi(ProjectListApi):
    project_roles = {"GET": ADMIN_ONLY}
    serializer_class = InvitationSerializer

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return Invitation.objects.none()
        return Invitation.objects.filter(project=self.project, status=Invitation.Status.PENDING).order_by("id")

    @extend_schema(operation_id="project_invitations_list", summary="Pending invitations (project admins).")
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)


class ProjectInvitationWithdrawApi(ProjectApi):
    project_roles = {"DELETE": ADMIN_ONLY}

    @extend_schema(
        operation_id="project_invitations_withdraw",
        summary="Withdraw a pending invitation (project admins).",
        request=None,
        responses={200: InvitationSerializer, **REFUSED},
    )
    def delete(self, request, slug, invitation_id):
        invitation = invitation_withdraw(invitation_id=invitation_id, project=self.project)
        return Response(InvitationSerializer(invitation).data)


class MyInvitationListApi(ListAPIView):
    authentication_classes = AUTHENTICATION
    permission_classes = [IsAuthenticated]
    serializer_class = InvitationSerializer

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return Invitation.objects.none()
        return invitations_for_user(user=self.request.user).order_by("id")

    @extend_schema(operation_id="invitations_list", summary="Your pending invitations.")
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)


class InvitationAnswerApi(APIView):
    authentication_classes = AUTHENTICATION
    permission_classes = [IsAuthenticated]
    answer = "accept"

    def post(self, request, invitation_id):
        invitation = invitation_for_user(user=request.user, invitation_id=invitation_id)
        if self.answer == "accept":
            membership = invitation_accept(invitation_id=invitation.pk, user=request.user)
            return Response(MembershipSerializer(membership).data)
        return Response(InvitationSerializer(invitation_decline(invitation_id=invitation.pk, user=request.user)).data)


class InvitationAcceptApi(InvitationAnswerApi):
    answer = "accept"

    @extend_schema(
        operation_id="invitations_accept",
        summary="Join the project with the offered role.",
        request=None,
        responses={200: MembershipSerializer, **REFUSED},
    )
    def post(self, request, invitation_id):
        return super().post(request, invitation_id)


class InvitationDeclineApi(InvitationAnswerApi):
    answer = "decline"

    @extend_schema(
        operation_id="invitations_decline",
        summary="Decline the invitation.",
        request=None,
        responses={200: InvitationSerializer, **REFUSED},
    )
    def post(self, request, invitation_id):
        return super().post(request, invitation_id)
