"""Browser pages of the QC app, by entity: reviews, dashboard, reports, exports, imports."""
