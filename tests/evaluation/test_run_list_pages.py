"""The project's model-run list is paged (RUNS_PER_PAGE, newest first): the first page holds a full page of
runs of every kind (benchmarks, generation, responses), a link leads to the next page, which holds the rest."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from evaluation.models import Run
from evaluation.views.runs import RUNS_PER_PAGE

pytestmark = pytest.mark.django_db

KINDS = ("benchmark", "llm_gen", "responses")
TITLES = {
    "benchmark": "Benchmark, 0 models",
    "llm_gen": "Generated questions, 0 models",
    "responses": "Responses to prompts, 0 models",
}
ROW = re.compile(r'<tr id="run-(\d+)">\s*<td><a href="[^"]+">#\d+</a></td>\s*<td>([^<]+)</td>')


def _rows(html: str) -> list[tuple[int, str]]:
    return [(int(pk), title) for pk, title in ROW.findall(html)]


def test_the_run_list_shows_a_page_of_runs_and_links_to_the_next(csqa, django_assert_max_num_queries):
    runs = Run.objects.bulk_create(
        Run(project=csqa.project, kind=KINDS[n % 3], status=Run.Status.DONE, created_by=csqa.admin, progress=n, total=n)
        for n in range(RUNS_PER_PAGE + 3)
    )
    newest_first = [(run.pk, TITLES[run.kind]) for run in reversed(runs)]
    client = Client()
    client.force_login(csqa.admin)

    with django_assert_max_num_queries(8):  # constant: the endpoints are prefetched, not read per run
        first = client.get("/p/demo/runs/").content.decode()
    second = client.get("/p/demo/runs/?page=2").content.decode()

    assert RUNS_PER_PAGE == 50
    assert _rows(first) == newest_first[:50]
    assert '<a href="?page=2" id="runs-next">Next</a>' in first
    assert "<span>Page 1 of 2</span>" in first
    assert "Previous" not in first
    assert _rows(second) == newest_first[50:]
    assert [pk for pk, _title in _rows(second)] == [runs[2].pk, runs[1].pk, runs[0].pk]
    assert '<a href="?page=1">Previous</a>' in second
    assert "<span>Page 2 of 2</span>" in second
    assert 'id="runs-next"' not in second
