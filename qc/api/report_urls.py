"""REST endpoints for csqa reports, exports and imports (issue 3), under /api/projects/<slug>/."""

from django.urls import path

from qc.api.report_views import CsqaImportApi, CsqaReportApi, ExportDetailApi, ExportFileApi, ExportListCreateApi

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
