"""csqa's LLM pages (included by evaluation/urls_drafts.py with every task type's)."""

from django.urls import path

from evaluation.task_types.csqa import views

urlpatterns = [
    path("p/<slug:slug>/generate/", views.generate_page, name="llm_generate"),
    path("p/<slug:slug>/adapt/", views.adapt_page, name="llm_adapt"),
    path("p/<slug:slug>/human-vs-llm/", views.human_vs_llm_page, name="human_vs_llm"),
]
