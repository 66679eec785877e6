"""Browser pages of the QC app."""

from django.urls import path

from qc import views

urlpatterns = [
    path("p/<slug:slug>/review/", views.review_queue, name="review_queue"),
    path("p/<slug:slug>/review/<int:item_id>/", views.review_item, name="review_item"),
    path("p/<slug:slug>/dashboard/", views.dashboard, name="dashboard"),
]
