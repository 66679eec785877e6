"""Browser pages for cross-answering and csqa reports (issue 3)."""

urlpatterns: list = []
