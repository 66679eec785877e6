"""Browser pages of the annotation app."""

urlpatterns: list = []
