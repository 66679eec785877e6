"""The background fit: it writes the model, annotator and item rows; a second fit replaces the first; a
burst of judgments queues one fit; a project whose model is off keeps none."""

import pytest
from django.core.cache import cache

from annotation.aggregation.store import fit_inputs
from annotation.aggregation.tasks import aggregation_fit, aggregation_request
from annotation.models import AggregatedAnnotator, AggregatedItem, AggregationFit
from annotation.services.known_answers import item_set_known_answer
from annotation.services.projects import project_update
from tests.annotation.task_types.csqa.world import answered_world

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def empty_cache():
    cache.clear()
    yield
    cache.clear()


def _rows(world):
    by_item = {row.item_id: row for row in AggregatedItem.objects.filter(project=world.project)}
    return [by_item.get(item.pk) for item in world.items]


def test_the_fit_task_writes_the_model_the_annotators_and_one_row_per_judged_item():
    world = answered_world()

    fit_id = aggregation_fit(world.project.pk)

    fit = AggregationFit.objects.get(project=world.project)
    assert fit.pk == fit_id
    assert (fit.model, fit.judgments, fit.items, fit.disagreements) == ("dawid_skene", 12, 4, 0)
    assert fit.labels == ["A", "B", "C", "D"]
    assert fit.parameters == {"n_iter": 100, "tol": 1e-5, "iterations": fit.parameters["iterations"]}
    rows = _rows(world)
    # The rule's label is the answerers' majority once gold; item 3 is excluded (no label).
    assert [(r.label, r.rule_label, r.agrees) for r in rows] == [
        ("A", "A", True),
        ("B", "B", True),
        ("D", "D", True),
        ("D", "", None),
    ]
    assert all(sum(r.posterior.values()) == pytest.approx(1.0, abs=1e-5) for r in rows)
    assert all(set(r.posterior) == {"A", "B", "C", "D"} for r in rows)
    annotators = {a.user_id: a for a in AggregatedAnnotator.objects.filter(project=world.project)}
    assert sorted(annotators) == sorted(p.pk for p in world.people)
    assert [annotators[p.pk].judgments for p in world.people] == [3, 3, 3, 3]
    assert all(len(a.parameters["confusion"]) == 4 for a in annotators.values())


def test_a_second_fit_replaces_the_first():
    world = answered_world()
    aggregation_fit(world.project.pk)
    first = AggregationFit.objects.get(project=world.project)

    project_update(project=world.project, aggregation_model="glad")
    aggregation_fit(world.project.pk)

    second = AggregationFit.objects.get(project=world.project)
    assert second.pk == first.pk
    assert second.model == "glad"
    assert second.fitted_at > first.fitted_at
    assert AggregatedItem.objects.filter(project=world.project).count() == 4
    assert AggregatedAnnotator.objects.filter(project=world.project).count() == 4
    assert set(AggregatedAnnotator.objects.filter(project=world.project).values_list("parameters", flat=True)[0]) == {
        "alpha"
    }


def test_a_burst_of_requests_queues_one_fit_that_runs_after_the_commit(django_capture_on_commit_callbacks):
    world = answered_world()

    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        queued = [aggregation_request(project=world.project) for _ in range(5)]

    assert queued == [True, False, False, False, False]
    assert len(callbacks) == 1
    assert AggregationFit.objects.get(project=world.project).judgments == 12
    # In the process (no broker, as here) the marker stays for the debounce time, so the next judgments
    # do not each refit the project on their request; once it expires, a judgment queues the next fit.
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        assert aggregation_request(project=world.project) is False
    cache.delete(f"aggregation:pending:{world.project.pk}")
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        assert aggregation_request(project=world.project) is True
    assert len(callbacks) == 1


def test_with_a_broker_the_fit_takes_the_marker_away(settings, django_capture_on_commit_callbacks):
    settings.CELERY_TASK_ALWAYS_EAGER = False
    world = answered_world()
    with django_capture_on_commit_callbacks(execute=False):
        assert aggregation_request(project=world.project) is True
        assert aggregation_request(project=world.project) is False

    aggregation_fit(world.project.pk)  # as the worker runs it, the debounce time later

    assert AggregationFit.objects.get(project=world.project).judgments == 12
    # A judgment saved during or after the fit queues the next one.
    with django_capture_on_commit_callbacks(execute=False):
        assert aggregation_request(project=world.project) is True


def test_turning_the_model_off_forgets_the_fit_and_queues_nothing(django_capture_on_commit_callbacks):
    world = answered_world()
    aggregation_fit(world.project.pk)

    project_update(project=world.project, aggregation_model="off")
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        queued = aggregation_request(project=world.project)

    assert queued is False and callbacks == []
    assert not AggregationFit.objects.filter(project=world.project).exists()
    assert not AggregatedItem.objects.filter(project=world.project).exists()
    assert not AggregatedAnnotator.objects.filter(project=world.project).exists()


def test_an_unknown_model_is_refused_and_nothing_changes():
    world = answered_world()

    with pytest.raises(Exception) as refused:
        project_update(project=world.project, aggregation_model="majority")

    assert refused.value.field_errors == {"aggregation_model": ["Unknown model."]}
    world.project.refresh_from_db()
    assert world.project.aggregation_model == "dawid_skene"


def test_a_known_answer_check_and_its_answers_never_enter_the_fit():
    world = answered_world()
    check = world.items[0]
    item_set_known_answer(item_id=check.pk, project=world.project, answer="A")

    inputs = fit_inputs(project=world.project)
    aggregation_fit(world.project.pk)

    assert sorted(inputs.rule_labels) == sorted(item.pk for item in world.items[1:])
    fit = AggregationFit.objects.get(project=world.project)
    assert (fit.judgments, fit.items) == (9, 3)  # item 0's three answers are left out with it
    assert not AggregatedItem.objects.filter(item=check).exists()
    assert AggregatedItem.objects.filter(project=world.project).count() == 3
