"""REST routes of reports, gold-set exports and imports, under /api/projects/<slug>/.

Kept out of config.api_urls, whose own schema is pinned by tests/api/test_schema.py."""

from django.urls import path

from annotation.task_types import registered_task_types
from qc.api.views.exports import ExportDetailApi, ExportFileApi, ExportListCreateApi
from qc.api.views.imports import ItemsImportApi
from qc.api.views.reports import ReportApi, TaskTypeReportApi

urlpatterns = [
    path("projects/<slug:slug>/report/", ReportApi.as_view(), name="api-report"),
    path("projects/<slug:slug>/exports/", ExportListCreateApi.as_view(), name="api-exports"),
    path("projects/<slug:slug>/exports/<int:run_id>/", ExportDetailApi.as_view(), name="api-export"),
    path(
        "projects/<slug:slug>/exports/<int:run_id>/files/<str:name>",
        ExportFileApi.as_view(),
        name="api-export-file",
    ),
    path("projects/<slug:slug>/imports/", ItemsImportApi.as_view(), name="api-import-items"),
]
# One sections route per registered task type that has a report (e.g. /reports/<name>/): built from the
# registry so the core names none. The registry is filled in AnnotationConfig.ready(), before URLs load.
urlpatterns += [
    path(
        f"projects/<slug:slug>/reports/{tt.name}/",
        TaskTypeReportApi.as_view(task_type=tt.name),
        name=f"api-report-{tt.name}",
    )
    for tt in registered_task_types()
    if tt.report_template
]
