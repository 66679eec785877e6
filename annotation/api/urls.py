"""REST routes of judging (cross-answering, validation, ...), under /api/projects/<slug>/.

Kept out of config.api_urls, whose own schema is pinned by tests/api/test_schema.py."""

from django.urls import path

from annotation.api.views.judgments import AnswerApi, AnswerNextApi, CrossAnswerPlanApi

urlpatterns = [
    path("projects/<slug:slug>/plans/cross-answers/", CrossAnswerPlanApi.as_view(), name="api-plan-cross-answers"),
    path("projects/<slug:slug>/answers/next/", AnswerNextApi.as_view(), name="api-answers-next"),
    path("projects/<slug:slug>/answers/<int:assignment_id>/", AnswerApi.as_view(), name="api-answer"),
]
