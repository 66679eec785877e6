"""REST endpoints for cross-answering (issue 3), under /api/projects/<slug>/."""

from django.urls import path

from annotation.api.answer_views import AnswerApi, AnswerNextApi, CrossAnswerPlanApi

urlpatterns = [
    path("projects/<slug:slug>/plans/cross-answers/", CrossAnswerPlanApi.as_view(), name="api-plan-cross-answers"),
    path("projects/<slug:slug>/answers/next/", AnswerNextApi.as_view(), name="api-answers-next"),
    path("projects/<slug:slug>/answers/<int:assignment_id>/", AnswerApi.as_view(), name="api-answer"),
]
