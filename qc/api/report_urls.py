"""REST endpoints for cross-answering, reports, imports and exports (issue 3)."""

urlpatterns: list = []
