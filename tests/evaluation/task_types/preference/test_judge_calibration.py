"""The calibration page of a preference judge run, over calls recorded as a judge run records them (no
model server: the figures depend only on the replies and their log-probabilities), the run option that
asks for the judge's probability, and the reading of that probability from a reply's log-probabilities."""

from __future__ import annotations

import pytest
from django.test import Client
from django.utils import translation

from annotation.errors import InvalidInput
from annotation.models import Membership
from evaluation.kinds import get_kind
from evaluation.models import Call, Endpoint, Run
from evaluation.services.runs import run_create
from evaluation.task_types.preference.judge_prompts import verdict_probability
from tests.evaluation.task_types.preference.judge_world import calibration_project, judge_run, verdict_reply
from tests.factories import MembershipFactory, UserFactory
from tests.svg_numbers import not_numbers, svg_numeric_attributes

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english_afterwards():
    yield
    translation.deactivate()


def _row(figures, judge, category):
    return next(f for f in figures if f["judge"] == judge and f["category"] == category)


def test_the_calibration_page_shows_each_judges_agreement_position_bias_and_calibration():
    project, admin = calibration_project()
    run = judge_run(project)
    client = Client()
    client.force_login(admin)

    runs_page = client.get("/p/cal/preference-runs/").content.decode()
    accuracy_page = client.get(f"/p/cal/preference-runs/{run.pk}/judge/").content.decode()
    response = client.get(f"/p/cal/preference-runs/{run.pk}/calibration/")
    figures = client.get(f"/p/cal/preference-runs/{run.pk}/calibration/?format=json").json()["results"]

    calibration_url = f'href="/p/cal/preference-runs/{run.pk}/calibration/"'
    assert calibration_url in runs_page and calibration_url in accuracy_page
    assert response.status_code == 200
    fair, biased = _row(figures, "fair · en", ""), _row(figures, "biased · en", "")
    # fair: 6 of 8 right; kappa (0.75 - 0.5) / 0.5; alpha 1 - (4/16) / (2*10*6 / (16*15)); never flips;
    # 0.75 sure and right 3 times in 4.
    assert (fair["decisions"], fair["compared"], fair["accuracy"], fair["kappa"], fair["alpha"]) == (
        8,
        8,
        0.75,
        0.5,
        0.5,
    )
    assert (fair["position_bias"], fair["swapped_units"], fair["first_position"]) == (0.0, 4, 0.5)
    assert (fair["ece"], fair["calibrated"]) == (0.0, 8)
    # per category: math all right (|1 - 0.75|), safety right in half (|0.5 - 0.75|).
    math_row, safety_row = _row(figures, "fair · en", "math"), _row(figures, "fair · en", "safety")
    assert (math_row["accuracy"], math_row["kappa"], math_row["alpha"], math_row["ece"]) == (1.0, 1.0, 1.0, 0.25)
    assert (safety_row["accuracy"], safety_row["kappa"], safety_row["ece"]) == (0.5, 0.0, 0.25)
    assert safety_row["alpha"] == round(1 - 0.5 / (24 / 56), 4) == -0.1667
    # biased: right in one order of each pair; kappa 0; alpha 1 - 0.5 / (128/240); flips on every pair;
    # certain and right half the time.
    assert (biased["accuracy"], biased["kappa"], biased["alpha"]) == (0.5, 0.0, 0.0625)
    assert (biased["position_bias"], biased["swapped_units"], biased["first_position"]) == (1.0, 4, 1.0)
    assert (biased["ece"], biased["calibrated"]) == (0.5, 8)
    page = response.content.decode()
    assert page.count('<section class="panel judge-calibration"') == 2
    assert '<h2 dir="auto">biased · en</h2>' in page
    assert (
        '<tr class="calibration-all"><th scope="row" dir="auto">All categories</th><td>8</td><td>8</td><td>0.75</td>'
        "<td>0.5</td><td>0.5</td><td>0.0 <span" in page
    )
    assert '<td>1.0 <span class="muted">(4 pairs)</span></td><td>1.0</td><td>0.5</td></tr>' in page
    assert '<svg class="chart-svg chart-reliability" id="reliability-2"' in page
    assert page.count('class="chart-dot"') == 2  # one non-empty bin per judge (0.75; 1.0)


@pytest.mark.parametrize("language", ["id", "ar"])
def test_the_reliability_diagram_writes_its_numbers_with_a_dot_in_every_language(language):
    project, admin = calibration_project()
    run = judge_run(project)
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(admin)

    html = client.get(f"/p/cal/preference-runs/{run.pk}/calibration/").content.decode()

    assert f'<html lang="{language}"' in html
    assert len([a for a in svg_numeric_attributes(html) if a[0] in ("rect", "circle")]) == 2 * (5 + 4)
    assert ("rect", "height", "120.0") in svg_numeric_attributes(html)  # half right: half the plot
    assert not_numbers(html) == []


def test_reviewers_do_not_reach_the_calibration_page():
    project, _admin = calibration_project()
    run = judge_run(project)
    reviewer = UserFactory()
    MembershipFactory(project=project, user=reviewer, role=Membership.Role.REVIEWER)
    client = Client()
    client.force_login(reviewer)

    assert client.get(f"/p/cal/preference-runs/{run.pk}/calibration/").status_code in (403, 404)


def test_a_run_without_probabilities_shows_agreement_and_says_it_has_no_calibration():
    project, admin = calibration_project()
    run = judge_run(project)
    Call.objects.filter(run=run).update(logprobs=None)
    client = Client()
    client.force_login(admin)

    page = client.get(f"/p/cal/preference-runs/{run.pk}/calibration/").content.decode()

    assert "chart-reliability" not in page
    assert page.count("No probabilities: start a judge run that asks for the judge") == 2


def test_asking_for_the_judges_probability_is_refused_when_a_judge_offers_no_log_probabilities():
    project, admin = calibration_project()
    plain = Endpoint.objects.create(name="plain", base_url="http://127.0.0.1:9/v1", model="m", offers_logprobs=False)

    with pytest.raises(InvalidInput) as refused:
        run_create(
            kind="preference_judge", endpoints=[plain], project=project, user=admin, parameters={"confidence": True}
        )

    assert "do not offer: plain" in refused.value.message
    assert Run.objects.count() == 0


def test_a_judge_run_asking_for_probabilities_asks_each_call_for_log_probabilities_and_hides_model_names():
    project, _admin = calibration_project()
    parameters = get_kind("preference_judge").clean_parameters({"confidence": "on"}, project=project)
    run = Run.objects.create(kind="preference_judge", project=project, parameters=parameters)

    units = list(get_kind("preference_judge").units(run))

    assert len(units) == 8 and {u.params["logprobs"] for u in units} == {5}
    assert {u.key.rpartition("|")[2] for u in units} == {"ab", "ba"}
    assert not any("m1" in u.messages[0]["content"] or "model" in u.messages[0]["content"] for u in units)


def test_the_verdict_probability_is_the_share_of_the_two_digits_among_the_digit_tokens_alternatives():
    text, logprobs = verdict_reply(2, 0.2)

    assert verdict_probability(text, logprobs) == pytest.approx(0.2)
    assert verdict_probability(text, None) is None
    assert verdict_probability("no digit", [{"token": "no digit", "logprob": 0.0, "top": []}]) is None
