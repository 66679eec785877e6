"""Browser pages of the QC app."""

from django.urls import path

from qc.views import adjudication, dashboard, exports, imports, item_bulk, reports, reviews

urlpatterns = [
    path("p/<slug:slug>/review/", reviews.review_queue, name="review_queue"),
    path("p/<slug:slug>/review/<int:item_id>/", reviews.review_item, name="review_item"),
    path("p/<slug:slug>/review/<int:item_id>/revise/", reviews.draft_revise_page, name="draft_revise"),
    path("p/<slug:slug>/dashboard/", dashboard.dashboard, name="dashboard"),
    path("p/<slug:slug>/report/", reports.report_page, name="report_page"),
    path("p/<slug:slug>/report.json", reports.report_json, name="report_json"),
    # The older address of the report page.
    path("p/<slug:slug>/reports/", reports.report_page, name="reports_page"),
    path("p/<slug:slug>/reports/conflicts.csv", reports.conflicts_csv, name="conflicts_csv"),
    path("p/<slug:slug>/import/", imports.items_import_page, name="items_import_page"),
    path("p/<slug:slug>/export/", exports.export_page, name="export_page"),
    path("p/<slug:slug>/export/<int:run_id>/<str:name>", exports.export_download, name="export_download"),
    path("p/<slug:slug>/items/bulk/", item_bulk.item_bulk, name="item_bulk"),
    # Gold overrides from the item page, where the admin sees the judgments they overrule.
    path(
        "p/<slug:slug>/items/<int:item_id>/gold/override/",
        adjudication.item_gold_override,
        name="item_gold_override",
    ),
    path("p/<slug:slug>/items/<int:item_id>/gold/revert/", adjudication.item_gold_revert, name="item_gold_revert"),
]
