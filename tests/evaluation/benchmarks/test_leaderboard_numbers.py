"""The benchmark leaderboard's charts (accuracy bars, the category heatmap) under Indonesian and Arabic:
every numeric SVG attribute parses as a number (a decimal comma made the bars vanish)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.utils import translation

from annotation.models import Membership
from evaluation.services.runs import run_create
from tests.evaluation.benchmarks.world import choice_project
from tests.evaluation.helpers import make_endpoint
from tests.factories import UserFactory
from tests.svg_numbers import not_numbers, svg_numeric_attributes

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def english_afterwards():
    yield
    translation.deactivate()


@pytest.mark.parametrize("language", ["id", "ar"])
def test_leaderboard_svg_attributes_are_numbers(llm_server, eager_tasks, language):
    llm_server.configure(handler="tests.evaluation.benchmarks.script:reply")
    alpha = make_endpoint(llm_server, name="alpha", model="alpha-model")
    beta = make_endpoint(llm_server, name="beta", model="beta-model")
    project, _items = choice_project()
    run = run_create(
        kind="benchmark",
        endpoints=[alpha, beta],
        project=project,
        parameters={"templates": ["question_choices", "helm"]},
    )
    reviewer = UserFactory()
    Membership.objects.create(project=project, user=reviewer, role="reviewer")
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(reviewer)

    html = client.get(f"/p/{project.slug}/benchmarks/{run.pk}/").content.decode()

    assert f'<html lang="{language}"' in html
    bars = [value for tag, name, value in svg_numeric_attributes(html) if tag == "rect" and name == "width"]
    assert len(bars) >= 3  # alpha, beta and the human baseline, at least
    assert not_numbers(html) == []
