"""Browser pages of evaluation: endpoints (site staff) and a project's LLM runs (its admins)."""

from django.urls import include, path

from evaluation.views import endpoints, runs

urlpatterns = [
    path("", include("evaluation.benchmarks.urls_open_ended")),
    path("", include("evaluation.benchmarks.urls_pages")),
    path("evaluation/endpoints/", endpoints.endpoint_list, name="endpoint_list"),
    path("evaluation/endpoints/new/", endpoints.endpoint_new, name="endpoint_new"),
    path("evaluation/endpoints/<int:endpoint_id>/", endpoints.endpoint_edit, name="endpoint_edit"),
    path("evaluation/endpoints/<int:endpoint_id>/test/", endpoints.endpoint_test_view, name="endpoint_test"),
    path("p/<slug:slug>/runs/", runs.run_list, name="llm_run_list"),
    path("p/<slug:slug>/runs/<int:run_id>/", runs.run_page, name="llm_run_page"),
    *[
        path(
            f"p/<slug:slug>/runs/<int:run_id>/{action}/", runs.run_control, {"action": action}, name=f"llm_run_{action}"
        )
        for action in ("pause", "resume", "cancel")
    ],
    path("p/<slug:slug>/runs/<int:run_id>/calls/", runs.call_list, name="llm_call_list"),
    path("p/<slug:slug>/runs/<int:run_id>/calls/<int:call_id>/", runs.call_detail, name="llm_call_detail"),
]
