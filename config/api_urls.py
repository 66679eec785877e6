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
from annotation.api.views.auth import TokenObtainApi
from annotation.api.views.catalog import AuthoringPlanApi, CategoryListApi, ConceptImportApi, ConceptListApi
from annotation.api.views.items import ItemDetailApi, ItemListApi
from annotation.api.views.members import MemberListAddApi, MemberProfileApi, MemberUpdateApi
from annotation.api.views.projects import ProjectDetailApi, ProjectListCreateApi
from qc.api.views import DashboardApi, ErrorTypeListApi, ReviewDecideApi, ReviewNextApi, ReviewQueueApi

project_urlpatterns = [
    path("", ProjectDetailApi.as_view(), name="api-project"),
    path("members/", MemberListAddApi.as_view(), name="api-members"),
    path("members/<int:membership_id>/", MemberUpdateApi.as_view(), name="api-member"),
    path("members/<int:membership_id>/profile/", MemberProfileApi.as_view(), name="api-member-profile"),
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
    path("projects/", ProjectListCreateApi.as_view(), name="api-projects"),
    path("projects/<slug:slug>/", include(project_urlpatterns)),
]
