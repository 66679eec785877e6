"""Browser pages of the QC app."""

from django.urls import path

from qc.views import dashboard, exports, imports, reports, reviews

urlpatterns = [
    path("p/<slug:slug>/review/", reviews.review_queue, name="review_queue"),
    path("p/<slug:slug>/review/<int:item_id>/", reviews.review_item, name="review_item"),
    path("p/<slug:slug>/dashboard/", dashboard.dashboard, name="dashboard"),
    path("p/<slug:slug>/reports/", reports.csqa_report_page, name="csqa_report_page"),
    path("p/<slug:slug>/reports/csqa.json", reports.csqa_report_json, name="csqa_report_json"),
    path("p/<slug:slug>/reports/conflicts.csv", reports.conflicts_csv, name="conflicts_csv"),
    path("p/<slug:slug>/import/", imports.csqa_import_page, name="csqa_import_page"),
    path("p/<slug:slug>/export/", exports.export_page, name="export_page"),
    path("p/<slug:slug>/export/<int:run_id>/<str:name>", exports.export_download, name="export_download"),
]
