"""REST API routes (owned by the API layer). Every project-scoped route starts with the project slug."""

from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView

from annotation.api.views.assignments import (
    AssignmentDetailApi,
    AssignmentDraftApi,
    AssignmentListApi,
    AssignmentNextApi,
    AssignmentSubmitApi,
)
from annotation.api.views.auth import TokenLogoutApi, TokenObtainApi
from annotation.api.views.catalog import AuthoringPlanApi, CategoryListApi, ConceptImportApi, ConceptListApi
from annotation.api.views.items import ItemDetailApi, ItemListApi
from annotation.api.views.members import (
    InvitationAcceptApi,
    InvitationDeclineApi,
    MemberListAddApi,
    MemberProfileApi,
    MemberUpdateApi,
    MyInvitationListApi,
    MyProfileApi,
    ProjectInvitationListApi,
    ProjectInvitationWithdrawApi,
)
from annotation.api.views.projects import ProjectDetailApi, ProjectListCreateApi
from qc.api.views.dashboard import DashboardApi
from qc.api.views.reviews import ErrorTypeListApi, ReviewDecideApi, ReviewNextApi, ReviewQueueApi

project_urlpatterns = [
    path("", ProjectDetailApi.as_view(), name="api-project"),
    path("members/", MemberListAddApi.as_view(), name="api-members"),
    path("members/<int:membership_id>/", MemberUpdateApi.as_view(), name="api-member"),
    path("members/<int:membership_id>/profile/", MemberProfileApi.as_view(), name="api-member-profile"),
    path("profile/", MyProfileApi.as_view(), name="api-my-profile"),
    path("invitations/", ProjectInvitationListApi.as_view(), name="api-project-invitations"),
    path("invitations/<int:invitation_id>/", ProjectInvitationWithdrawApi.as_view(), name="api-project-invitation"),
    path("categories/", CategoryListApi.as_view(), name="api-categories"),
    path("concepts/", ConceptListApi.as_view(), name="api-concepts"),
    path("concepts/import/", ConceptImportApi.as_view(), name="api-concepts-import"),
    path("plans/authoring/", AuthoringPlanApi.as_view(), name="api-plan-authoring"),
    path("assignments/", AssignmentListApi.as_view(), name="api-assignments"),
    path("assignments/next/", AssignmentNextApi.as_view(), name="api-assignments-next"),
    path("assignments/<int:assignment_id>/", AssignmentDetailApi.as_view(), name="api-assignment"),
    path("assignments/<int:assignment_id>/draft/", AssignmentDraftApi.as_view(), name="api-assignment-draft"),
    path("assignments/<int:assignment_id>/submit/", AssignmentSubmitApi.as_view(), name="api-assignment-submit"),
    path("items/", ItemListApi.as_view(), name="api-items"),
    path("items/<int:item_id>/", ItemDetailApi.as_view(), name="api-item"),
    path("items/<int:item_id>/review/", ReviewDecideApi.as_view(), name="api-item-review"),
    path("reviews/queue/", ReviewQueueApi.as_view(), name="api-review-queue"),
    path("reviews/next/", ReviewNextApi.as_view(), name="api-review-next"),
    path("error-types/", ErrorTypeListApi.as_view(), name="api-error-types"),
    path("dashboard/", DashboardApi.as_view(), name="api-dashboard"),
]

urlpatterns = [
    path("schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("auth/token/", TokenObtainApi.as_view(), name="api-token"),
    path("auth/logout/", TokenLogoutApi.as_view(), name="api-logout"),
    path("invitations/", MyInvitationListApi.as_view(), name="api-invitations"),
    path("invitations/<int:invitation_id>/accept/", InvitationAcceptApi.as_view(), name="api-invitation-accept"),
    path("invitations/<int:invitation_id>/decline/", InvitationDeclineApi.as_view(), name="api-invitation-decline"),
    path("projects/", ProjectListCreateApi.as_view(), name="api-projects"),
    path("projects/<slug:slug>/", include(project_urlpatterns)),
]
