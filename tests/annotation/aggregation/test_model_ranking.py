"""The background fit of a preference project: the same task and trigger as the aggregation model, saving
the Bradley-Terry ranking of the models that `model_ranking` gives on the project's pairs."""

import pytest
from django.core.cache import cache

from annotation.aggregation.ranking import ranking_applies
from annotation.aggregation.tasks import aggregation_fit, aggregation_request
from annotation.models import AggregationFit, Assignment, ModelRanking
from annotation.services.projects import project_update
from annotation.task_types.preference.ranking import model_ranking
from annotation.task_types.preference.reports import all_pairs, prompts_from_rows
from qc.reports.rows import report_rows
from tests.annotation.task_types.preference.world import MODELS, make_world, plan, rate_all

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def empty_cache():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def rated():
    world = make_world()
    plan(world)
    rate_all(world)
    return world


def _report_pairs(world):
    rows = report_rows(project=world.project)
    pairs, _ = all_pairs(prompts_from_rows(rows), rows.settings)
    return pairs


def test_the_fit_task_saves_the_ranking_model_ranking_gives_on_the_reports_pairs(rated):
    saved_id = aggregation_fit(rated.project.pk)

    saved = ModelRanking.objects.get(project=rated.project)
    pairs = _report_pairs(rated)
    assert saved.pk == saved_id
    assert saved.ranking == model_ranking(pairs)  # seeded bootstrap: the same draws
    assert (saved.pairs, saved.resamples) == (len(pairs), 200)
    assert len(pairs) == 172  # 200 response pairs less 28 ties (test_rating derives them from the scores)
    assert [row["rank"] for row in saved.ranking] == [1, 2, 3, 4, 5]
    assert sorted(row["model"] for row in saved.ranking) == sorted(MODELS)
    assert sum(row["pairs"] for row in saved.ranking) == 2 * len(pairs)
    assert all(row["low"] <= row["score"] <= row["high"] for row in saved.ranking)
    assert saved.seconds > 0
    # A preference project has no categorical judgments: no aggregation fit beside the ranking.
    assert not AggregationFit.objects.filter(project=rated.project).exists()


def test_a_second_fit_replaces_the_first(rated):
    aggregation_fit(rated.project.pk)
    first = ModelRanking.objects.get(project=rated.project)

    aggregation_fit(rated.project.pk)

    second = ModelRanking.objects.get(project=rated.project)
    assert second.pk == first.pk
    assert second.fitted_at > first.fitted_at
    assert second.ranking == first.ranking
    assert ModelRanking.objects.filter(project=rated.project).count() == 1


def test_a_rating_queues_the_fit_as_a_judgment_does(django_capture_on_commit_callbacks):
    world = make_world()
    plan(world)
    assignment = Assignment.objects.filter(project=world.project, kind="rate").select_related("user").first()

    world.rate(assignment)

    # The rating set the project's debounce marker: the next request within the window queues nothing.
    assert aggregation_request(project=world.project) is False
    cache.clear()
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        assert aggregation_request(project=world.project) is True
    assert len(callbacks) == 1


def test_nothing_rated_saves_no_ranking():
    world = make_world()
    plan(world)

    assert aggregation_fit(world.project.pk) is None
    assert not ModelRanking.objects.filter(project=world.project).exists()


def test_a_project_with_the_fit_off_ranks_nothing_and_forgets_its_last_ranking(rated):
    aggregation_fit(rated.project.pk)
    project_update(project=rated.project, aggregation_model="off")
    rated.project.refresh_from_db()

    assert not ModelRanking.objects.filter(project=rated.project).exists()
    assert ranking_applies(rated.project) is False
    assert aggregation_request(project=rated.project) is False
    assert aggregation_fit(rated.project.pk) is None
    assert not ModelRanking.objects.filter(project=rated.project).exists()
