"""preference's pages (included by evaluation/urls_drafts.py with every task type's)."""

from django.urls import path
from django.utils.translation import gettext_lazy as _

from evaluation.task_types.preference import views

urlpatterns = [
    path("p/<slug:slug>/raters/", views.raters_page, name="preference_raters"),
    path("p/<slug:slug>/prompt-slots/", views.prompt_slots_page, name="preference_prompt_slots"),
    path("p/<slug:slug>/pairs/", views.pairs_download, name="preference_pairs_download"),
    path("p/<slug:slug>/preference-runs/", views.runs_page, name="preference_runs"),
    path("p/<slug:slug>/preference-runs/<int:run_id>/judge/", views.judge_report_page, name="preference_judge_report"),
    path(
        "p/<slug:slug>/preference-runs/<int:run_id>/calibration/",
        views.judge_calibration_page,
        name="preference_judge_calibration",
    ),
]

PAGES = {"preference_raters": _("Rater groups"), "preference_runs": _("Responses and judge runs")}
