"""sentence_completion's model pages (included by evaluation/urls_drafts.py with every task type's)."""

from django.urls import path
from django.utils.translation import gettext_lazy as _

from evaluation.task_types.sentence_completion import views

urlpatterns = [
    path("p/<slug:slug>/arabculture-leaderboard/", views.leaderboard_page, name="arabculture_leaderboard"),
    path("p/<slug:slug>/arabculture-topics/", views.topics_page, name="arabculture_topics"),
]

# Linked from the project's runs page (evaluation.task_types.task_type_pages).
PAGES = {"arabculture_leaderboard": _("ArabCulture leaderboard")}
