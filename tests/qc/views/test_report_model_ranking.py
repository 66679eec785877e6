"""The preference report's ranking of the models: the table of the last background fit, the note before
any, reviewers and admins only (it names the models), and a query count that does not grow."""

import json
import re
from datetime import timedelta

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from annotation.aggregation.ranking import model_ranking_save
from annotation.aggregation.tasks import aggregation_fit
from annotation.models import ModelRanking
from annotation.task_types.base import RankedModels
from tests.annotation.task_types.preference.world import MODELS, make_world, plan, rate_all
from tests.svg_numbers import not_numbers

pytestmark = pytest.mark.django_db

RANKING = [
    {"model": "gpt-4o", "score": 0.41234, "low": 0.35, "high": 0.4801, "pairs": 40, "wins": 31, "rank": 1},
    {"model": "aya-expanse-8b", "score": 0.3, "low": 0.2512, "high": 0.36, "pairs": 40, "wins": 20, "rank": 2},
    {"model": "llama-3.1-8b", "score": 0.28766, "low": None, "high": None, "pairs": 40, "wins": 9, "rank": 3},
]


@pytest.fixture(autouse=True)
def empty_cache():
    cache.clear()
    yield
    cache.clear()


def _page(client, user, slug="pref"):
    client.force_login(user)
    return client.get(reverse("report_page", args=[slug]))


def _table_rows(html: str) -> list[list[str]]:
    table = re.search(r'<table class="compact" id="pref-ranking-table">(.*?)</table>', html, re.S).group(1)
    body = table.split("<tbody>")[1]
    return [
        [
            " ".join(re.sub(r"<[^>]+>", " ", cell).split())
            for cell in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", row, re.S)
        ]
        for row in re.findall(r"<tr>(.*?)</tr>", body, re.S)
    ]


def test_before_any_fit_the_report_says_none_has_been_fitted(client):
    world = make_world()

    html = _page(client, world.admin).content.decode()

    assert 'id="pref-ranking"' in html
    assert 'id="pref-ranking-none"' in html
    assert 'id="pref-ranking-table"' not in html


def test_the_report_shows_the_last_rankings_rows_and_when_it_was_fitted(client):
    world = make_world()
    model_ranking_save(project=world.project, ranked=RankedModels(RANKING, 60, 200), seconds=1.5)
    ModelRanking.objects.filter(project=world.project).update(fitted_at=timezone.now() - timedelta(minutes=7))

    html = _page(client, world.admin).content.decode()

    assert _table_rows(html) == [
        ["1", "gpt-4o", "0.412 [0.350, 0.480]", "", "40", "31"],
        ["2", "aya-expanse-8b", "0.300 [0.251, 0.360]", "", "40", "20"],
        ["3", "llama-3.1-8b", "0.288 [—]", "", "40", "9"],
    ]
    fitted = re.search(r'id="pref-ranking-fitted">(.*?)</p>', html, re.S).group(1)
    assert " ".join(fitted.split()) == (
        "Fitted 7 minutes ago on 60 pairs; intervals from 200 bootstrap resamples over prompts."
    )
    # The interval bars on one scale (the largest interval end, 0.4801, at 120 px); never localised.
    assert '<line x1="87.5" x2="120.0" y1="6" y2="6"' in html
    assert '<circle cx="103.1" cy="6"' in html
    assert '<circle cx="71.9" cy="6"' in html  # no interval: the score alone


def test_the_numbers_in_the_bars_are_not_localised_in_indonesian_or_arabic(client):
    world = make_world()
    model_ranking_save(project=world.project, ranked=RankedModels(RANKING, 60, 200), seconds=1.5)
    client.force_login(world.admin)

    for language in ("id", "ar"):
        html = client.get(reverse("report_page", args=["pref"]), HTTP_ACCEPT_LANGUAGE=language).content.decode()
        assert '<line x1="87.5" x2="120.0"' in html
        assert '<circle cx="103.1"' in html
        assert not_numbers(html) == []
    assert (
        "Peringkat model (Bradley-Terry)"
        in client.get(reverse("report_page", args=["pref"]), HTTP_ACCEPT_LANGUAGE="id").content.decode()
    )


def test_raters_cannot_reach_the_ranking_and_nothing_names_the_models_to_them(client):
    world = make_world()
    model_ranking_save(project=world.project, ranked=RankedModels(RANKING, 60, 200), seconds=1.5)
    rater = world.raters["A"][0]

    response = _page(client, rater)

    assert response.status_code == 404
    assert "gpt-4o" not in response.content.decode()
    assert ModelRanking.objects.get(project=world.project).ranking == RANKING


def _prompts(n: int) -> bytes:
    return "".join(
        json.dumps(
            {
                "id": f"P{p:02d}",
                "category": ("math", "coding")[p % 2],
                "prompt": f"Pertanyaan {p}",
                "input": "",
                "responses": [{"model": m, "text": f"Jawaban {r} soal {p}."} for r, m in enumerate(MODELS)],
            }
        )
        + "\n"
        for p in range(n)
    ).encode()


def test_the_report_page_uses_as_many_queries_for_a_bigger_project(client, django_assert_max_num_queries):
    counts = []
    for slug, prompts in (("small", 2), ("big", 8)):
        world = make_world(slug=slug, raters_per_group=2, prompts=_prompts(prompts))
        plan(world)
        rate_all(world)
        aggregation_fit(world.project.pk)
        assert ModelRanking.objects.filter(project=world.project).exists()
        client.force_login(world.admin)
        url = reverse("report_page", args=[slug])
        client.get(url)  # warm up the connection
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url).status_code == 200
        counts.append(len(queries))
        # The report page's own 22 (session, membership, rows with the judgments cursor's planner
        # settings set and put back, charts, languages) and the last ranking's 1.
        with django_assert_max_num_queries(23):
            client.get(url)

    assert counts[0] == counts[1]
