"""Under Indonesian and Arabic (decimal comma) every chart's SVG attributes still parse as numbers: the
dashboard's and report's charts of a cross-answered csqa project, the preference report's score bars and
the NLI report's round bars. The benchmark leaderboard has its own test in tests/evaluation/benchmarks."""

from __future__ import annotations

import pytest
from django.test import Client
from django.utils import translation

from annotation.models import Project
from tests.annotation.task_types.csqa.world import answered_world
from tests.annotation.task_types.nli.world import make_nli_project
from tests.annotation.task_types.preference.world import make_world as preference_world
from tests.annotation.task_types.preference.world import plan, rate_all
from tests.svg_numbers import not_numbers, svg_numeric_attributes

pytestmark = pytest.mark.django_db

LANGUAGES = ("id", "ar")


@pytest.fixture(autouse=True)
def english_afterwards():
    # LocaleMiddleware leaves the request's language active in the thread.
    yield
    translation.deactivate()


def _html(user, url: str, language: str) -> str:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    response = client.get(url)
    assert response.status_code == 200, url
    assert f'<html lang="{language}"' in response.content.decode()
    return response.content.decode()


def _admin(project: Project):
    return project.memberships.get(role="admin").user


@pytest.mark.parametrize("language", LANGUAGES)
def test_dashboard_and_report_charts_write_numbers_with_a_dot(language):
    world = answered_world()

    for url in ("/p/xa/dashboard/", "/p/xa/report/"):
        html = _html(world.admin, url, language)
        attributes = svg_numeric_attributes(html)

        assert len(attributes) > 20, url  # the charts are there (bars, axes, viewBox)
        assert not_numbers(html) == [], url


@pytest.mark.parametrize("language", LANGUAGES)
def test_preference_report_score_bars_write_numbers_with_a_dot(language):
    world = preference_world()
    plan(world)
    rate_all(world)

    html = _html(world.admin, "/p/pref/report/", language)

    assert len([a for a in svg_numeric_attributes(html) if a[0] == "rect"]) > 10
    assert not_numbers(html) == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_nli_report_round_bars_write_numbers_with_a_dot(language):
    world = make_nli_project()

    html = _html(world.admin, "/p/nli/report/", language)

    assert svg_numeric_attributes(html) != []
    assert not_numbers(html) == []


def test_the_check_catches_a_localised_number():
    html = '<svg viewBox="0 0 10 10"><rect x="0" width="0,5" height="2"></rect><polyline points="1,2 3,4">'

    assert not_numbers(html) == [("rect", "width", "0,5")]
