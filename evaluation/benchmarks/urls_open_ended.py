"""The judging queue of open-ended benchmark runs (evaluation/benchmarks/open_ended_views.py)."""

from django.urls import path

from evaluation.benchmarks import open_ended_views

urlpatterns = [
    path("p/<slug:slug>/benchmarks/<int:run_id>/judge/", open_ended_views.judge_queue, name="benchmark_judge"),
]
