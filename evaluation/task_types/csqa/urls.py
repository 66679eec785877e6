"""csqa's LLM pages (included by evaluation/urls_drafts.py with every task type's)."""

from django.urls import path
from django.utils.translation import gettext_lazy as _

from evaluation.task_types.csqa import views

urlpatterns = [
    path("p/<slug:slug>/generate/", views.generate_page, name="llm_generate"),
    path("p/<slug:slug>/adapt/", views.adapt_page, name="llm_adapt"),
    path("p/<slug:slug>/human-vs-llm/", views.human_vs_llm_page, name="human_vs_llm"),
]

# Linked from the project's runs page (evaluation.task_types.task_type_pages).
PAGES = {"llm_generate": _("Generate drafts"), "llm_adapt": _("Adapt CommonsenseQA"), "human_vs_llm": _("Human vs LLM")}
