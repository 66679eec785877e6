"""REST routes of judging (whatever the protocol calls it: answering, validating, rating), under
/api/projects/<slug>/.

Kept out of config.api_urls, whose own schema is pinned by tests/api/test_schema.py."""

from django.urls import path

from annotation.api.views.groups import MemberGroupApi
from annotation.api.views.judgments import (
    AnswerAlias,
    AnswerNextAlias,
    CrossAnswerPlanAlias,
    JudgeApi,
    JudgeNextApi,
    JudgingPlanApi,
)
from annotation.api.views.screening import AdmitApi, ApplicantsApi, MemberCountriesApi, ScreeningApi
from annotation.api.views.work import AutosaveApi, SkipApi

urlpatterns = [
    path("projects/<slug:slug>/plans/judging/", JudgingPlanApi.as_view(), name="api-plan-judging"),
    path("projects/<slug:slug>/judgments/next/", JudgeNextApi.as_view(), name="api-judgments-next"),
    path("projects/<slug:slug>/judgments/<int:assignment_id>/", JudgeApi.as_view(), name="api-judgment"),
    # The cross-answering addresses the API began with: deprecated, kept for existing clients.
    path("projects/<slug:slug>/plans/cross-answers/", CrossAnswerPlanAlias.as_view(), name="api-plan-cross-answers"),
    path("projects/<slug:slug>/answers/next/", AnswerNextAlias.as_view(), name="api-answers-next"),
    path("projects/<slug:slug>/answers/<int:assignment_id>/", AnswerAlias.as_view(), name="api-answer"),
    # Work is never lost: the authoring autosave, and skip with a reason (authoring and judging).
    path(
        "projects/<slug:slug>/assignments/<int:assignment_id>/autosave/",
        AutosaveApi.as_view(),
        name="api-assignment-autosave",
    ),
    path("projects/<slug:slug>/assignments/<int:assignment_id>/skip/", SkipApi.as_view(), name="api-assignment-skip"),
    path("projects/<slug:slug>/screening/", ScreeningApi.as_view(), name="api-screening"),
    path("projects/<slug:slug>/screening/applicants/", ApplicantsApi.as_view(), name="api-screening-applicants"),
    path(
        "projects/<slug:slug>/screening/applicants/<int:membership_id>/admit/",
        AdmitApi.as_view(),
        name="api-screening-admit",
    ),
    path(
        "projects/<slug:slug>/members/<int:membership_id>/countries/",
        MemberCountriesApi.as_view(),
        name="api-member-countries",
    ),
    path(
        "projects/<slug:slug>/members/<int:membership_id>/group/",
        MemberGroupApi.as_view(),
        name="api-member-group",
    ),
]
