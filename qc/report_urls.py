"""Browser pages for csqa reports, gold-set exports and id-csqa imports (issue 3)."""

from django.urls import path

from qc.report_views import exports, imports, reports

urlpatterns = [
    path("p/<slug:slug>/reports/", reports.csqa_report_page, name="csqa_report_page"),
    path("p/<slug:slug>/reports/csqa.json", reports.csqa_report_json, name="csqa_report_json"),
    path("p/<slug:slug>/reports/conflicts.csv", reports.conflicts_csv, name="conflicts_csv"),
    path("p/<slug:slug>/import/", imports.csqa_import_page, name="csqa_import_page"),
    path("p/<slug:slug>/export/", exports.export_page, name="export_page"),
    path("p/<slug:slug>/export/<int:run_id>/<str:name>", exports.export_download, name="export_download"),
]
