"""The benchmark pages of a project (evaluation/benchmarks/pages.py)."""

from django.urls import path

from evaluation.benchmarks import pages, template_pages

urlpatterns = [
    path("p/<slug:slug>/benchmarks/", pages.benchmark_list, name="benchmark_list"),
    path(
        "p/<slug:slug>/benchmarks/templates/",
        template_pages.benchmark_template_list,
        name="benchmark_template_list",
    ),
    path("p/<slug:slug>/benchmarks/compare/", pages.benchmark_compare, name="benchmark_compare"),
    path("p/<slug:slug>/benchmarks/<int:run_id>/", pages.benchmark_leaderboard, name="benchmark_leaderboard"),
    path("p/<slug:slug>/benchmarks/<int:run_id>/items/<int:item_id>/", pages.benchmark_item, name="benchmark_item"),
    *[
        path(
            f"p/<slug:slug>/benchmarks/<int:run_id>/predictions.{fmt}",
            pages.benchmark_download,
            {"fmt": fmt},
            name=f"benchmark_download_{fmt}",
        )
        for fmt in ("csv", "json")
    ],
]
