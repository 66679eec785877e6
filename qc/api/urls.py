"""REST routes of csqa reports, gold-set exports and id-csqa imports, under /api/projects/<slug>/.

Kept out of config.api_urls, whose own schema is pinned by tests/api/test_schema.py."""

from django.urls import path

from qc.api.views.exports import ExportDetailApi, ExportFileApi, ExportListCreateApi
from qc.api.views.imports import CsqaImportApi
from qc.api.views.reports import CsqaReportApi

urlpatterns = [
    path("projects/<slug:slug>/reports/csqa/", CsqaReportApi.as_view(), name="api-report-csqa"),
    path("projects/<slug:slug>/exports/", ExportListCreateApi.as_view(), name="api-exports"),
    path("projects/<slug:slug>/exports/<int:run_id>/", ExportDetailApi.as_view(), name="api-export"),
    path(
        "projects/<slug:slug>/exports/<int:run_id>/files/<str:name>",
        ExportFileApi.as_view(),
        name="api-export-file",
    ),
    path("projects/<slug:slug>/imports/csqa/", CsqaImportApi.as_view(), name="api-import-csqa"),
]
