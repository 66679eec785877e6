"""QC over the REST API, by entity: reviews, dashboard, reports, exports, imports."""
