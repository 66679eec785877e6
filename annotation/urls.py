"""Browser pages of the annotation app."""

from django.urls import path

from annotation.views import accounts, authoring, concepts, items, judging, members, projects, rounds, screening
from annotation.views import preferences as preference_views
from annotation.views import work as work_views

urlpatterns = [
    path("", accounts.home, name="home"),
    path("accounts/login/", accounts.login, name="login"),
    path("accounts/logout/", accounts.logout, name="logout"),
    path("account/preferences/", preference_views.preferences_page, name="preferences"),
    path("projects/new/", projects.project_create, name="project_create"),
    path("p/<slug:slug>/", projects.project_detail, name="project_detail"),
    path("p/<slug:slug>/settings/", projects.project_settings, name="project_settings"),
    path("p/<slug:slug>/plan/", projects.plan_authoring, name="plan_authoring"),
    path("p/<slug:slug>/members/", members.project_members, name="project_members"),
    path("p/<slug:slug>/members/<int:membership_id>/profile/", members.member_profile, name="member_profile"),
    path("p/<slug:slug>/profile/", members.my_profile, name="my_profile"),
    path(
        "invitations/<int:invitation_id>/accept/",
        members.invitation_answer,
        {"answer": "accept"},
        name="invitation_accept",
    ),
    path(
        "invitations/<int:invitation_id>/decline/",
        members.invitation_answer,
        {"answer": "decline"},
        name="invitation_decline",
    ),
    path("p/<slug:slug>/concepts/", concepts.project_concepts, name="project_concepts"),
    path("p/<slug:slug>/concepts/<int:concept_id>/edit/", concepts.concept_edit, name="concept_edit"),
    path("p/<slug:slug>/concepts/<int:concept_id>/retire/", concepts.concept_retire, name="concept_retire"),
    path("p/<slug:slug>/screening/", screening.screening_page, name="screening_page"),
    path("p/<slug:slug>/screening/applicants/", screening.screening_applicants, name="screening_applicants"),
    path("p/<slug:slug>/screening/setup/", screening.screening_setup, name="screening_setup"),
    path("p/<slug:slug>/members/<int:membership_id>/countries/", screening.member_countries, name="member_countries"),
    path("p/<slug:slug>/author/", authoring.author_queue, name="author_queue"),
    path("p/<slug:slug>/author/<int:assignment_id>/", authoring.author_item, name="author_item"),
    # Work is never lost: autosave, skip with a reason, the admin's list of skips.
    path("p/<slug:slug>/author/<int:assignment_id>/draft/", work_views.author_draft_save, name="author_draft_save"),
    path("p/<slug:slug>/work/<int:assignment_id>/skip/", work_views.skip, name="assignment_skip"),
    path("p/<slug:slug>/skips/", work_views.project_skips, name="project_skips"),
    path("p/<slug:slug>/items/", items.item_list, name="item_list"),
    path("p/<slug:slug>/items/<int:item_id>/", items.item_detail, name="item_detail"),
    path("p/<slug:slug>/items/<int:item_id>/known-answer/", items.item_known_answer, name="item_known_answer"),
    path("p/<slug:slug>/rounds/", rounds.judging_rounds, name="judging_rounds"),
    path(
        "p/<slug:slug>/rounds/corrections/<int:judgment_id>/send/",
        rounds.correction_send,
        name="correction_send",
    ),
    path("p/<slug:slug>/judging/plan/", judging.judging_plan_page, name="judging_plan"),
    path("p/<slug:slug>/judge/", judging.judge_queue, name="judge_queue"),
    path("p/<slug:slug>/judge/<int:assignment_id>/", judging.judge_item, name="judge_item"),
    # The older cross-answering addresses: the queue and form are the same views, redirecting within this
    # family; the plan's moved for good (a permanent redirect).
    path("p/<slug:slug>/answer/", judging.judge_queue, {"routes": judging.ANSWER_ROUTES}, name="answer_queue"),
    path(
        "p/<slug:slug>/answer/<int:assignment_id>/",
        judging.judge_item,
        {"routes": judging.ANSWER_ROUTES},
        name="answer_item",
    ),
    path("p/<slug:slug>/crossanswer/", judging.judging_plan_moved, name="crossanswer_plan"),
]
