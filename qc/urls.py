"""Browser pages of the QC app."""

urlpatterns: list = []
