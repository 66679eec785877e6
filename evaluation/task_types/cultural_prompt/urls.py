"""cultural_prompt's own pages (included by evaluation/urls_drafts.py with every task type's): the model
scores, and the variant requests of annotation/task_types/cultural_prompt/ (page and API), kept here so no
core URL module names a task type."""

from django.urls import path
from django.utils.translation import gettext_lazy as _

from annotation.task_types.cultural_prompt import views as variant_views
from annotation.task_types.cultural_prompt.api import VariantRequestApi
from evaluation.task_types.cultural_prompt import views

urlpatterns = [
    path("p/<slug:slug>/kalahi-scores/", views.scores_page, name="kalahi_scores"),
    path("p/<slug:slug>/kalahi-variants/", variant_views.variants_page, name="kalahi_variants"),
    path(
        "api/projects/<slug:slug>/kalahi/variant-requests/",
        VariantRequestApi.as_view(),
        name="api-kalahi-variants",
    ),
]

# Linked from the project's runs page (evaluation.task_types.task_type_pages).
PAGES = {"kalahi_scores": _("KALAHI scores")}
