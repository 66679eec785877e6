"""Browser pages for cross-answering (issue 3)."""

from django.urls import path

from annotation.views import answering

urlpatterns = [
    path("p/<slug:slug>/crossanswer/", answering.crossanswer_plan, name="crossanswer_plan"),
    path("p/<slug:slug>/answer/", answering.answer_queue, name="answer_queue"),
    path("p/<slug:slug>/answer/<int:assignment_id>/", answering.answer_item, name="answer_item"),
]
