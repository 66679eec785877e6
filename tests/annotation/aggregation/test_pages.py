"""The item page's posterior bars and disagreement mark, the dashboard's abilities, the report's section
and the export's label_posterior, each read from the last fit with a constant number of queries."""

import csv
import json

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from annotation.aggregation.tasks import aggregation_fit
from annotation.models import AggregatedItem, AggregationFit
from qc.exports import gold_export
from tests.annotation.task_types.csqa.world import answered_world

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def empty_cache():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def fitted():
    world = answered_world()
    aggregation_fit(world.project.pk)
    return world


def _disagree(world, item):
    """Make the model's label of `item` differ from the rule's (as a fit can when answerers' skills differ)."""
    AggregatedItem.objects.filter(item=item).update(
        label="B", probability=0.7, agrees=False, posterior={"A": 0.2, "B": 0.7, "C": 0.05, "D": 0.05}
    )
    AggregationFit.objects.filter(project=world.project).update(disagreements=1)


def _page(client, user, name, *args):
    client.force_login(user)
    return client.get(reverse(name, args=[*args]))


def test_the_item_page_shows_a_bar_per_label_and_marks_where_the_model_and_the_rule_disagree(fitted, client):
    item = fitted.items[0]
    _disagree(fitted, item)

    html = _page(client, fitted.reviewer, "item_detail", "xa", item.pk).content.decode()

    assert 'id="aggregation-disagrees"' in html
    assert html.count('<div class="progress-row') == 4
    assert '<progress max="1" value="0.7000" aria-label="B">' in html
    assert '<div class="progress-row current" data-label="B">' in html
    assert "Dawid-Skene, fitted 0\xa0minutes ago on 12 judgments." in html
    assert '<dd id="aggregation-rule-label" dir="auto">A</dd>' in html


def test_an_agreeing_item_has_no_mark_and_the_author_sees_no_model(fitted, client):
    item = fitted.items[1]

    reviewer_html = _page(client, fitted.reviewer, "item_detail", "xa", item.pk).content.decode()
    author_html = _page(client, item.author, "item_detail", "xa", item.pk).content.decode()

    assert 'id="aggregation-posterior"' in reviewer_html
    assert 'id="aggregation-disagrees"' not in reviewer_html
    assert 'id="aggregation"' not in author_html


def test_the_dashboard_shows_each_annotators_ability_with_its_interval(fitted, client):
    html = _page(client, fitted.admin, "dashboard", "xa").content.decode()

    for person in fitted.people:
        assert f'id="ability-{person.pk}" class="num">' in html
    assert 'id="ability-heading">Estimated ability (95% interval)</th>' in html


def test_the_report_names_the_model_and_links_the_disagreements(fitted, client):
    _disagree(fitted, fitted.items[0])

    html = _page(client, fitted.admin, "report_page", "xa").content.decode()

    assert '<dd id="aggregation-model">Dawid-Skene</dd>' in html
    assert '<dd id="aggregation-disagreements">1</dd>' in html
    assert f'href="{reverse("item_detail", args=["xa", fitted.items[0].pk])}"' in html


def _queries(client, user, name, *args) -> int:
    client.force_login(user)
    client.get(reverse(name, args=[*args]))  # warm up the session and the connection
    with CaptureQueriesContext(connection) as captured:
        assert client.get(reverse(name, args=[*args])).status_code == 200
    return len(captured)


@pytest.mark.parametrize("name", ["item_detail", "dashboard", "report_page"])
def test_the_pages_queries_do_not_grow_with_the_project(client, name):
    counts = []
    for slug, per_author in (("xa", 1), ("xb", 6)):
        world = answered_world(slug=slug, items_per_author=per_author)
        aggregation_fit(world.project.pk)
        args = (slug, world.items[0].pk) if name == "item_detail" else (slug,)
        counts.append(_queries(client, world.admin, name, *args))

    assert counts[0] == counts[1]


def test_every_exported_row_carries_label_posterior_summing_to_one(fitted, tmp_path):
    gold_export(project=fitted.project, fmt="jsonl", out_dir=tmp_path)

    rows = [json.loads(line) for line in (tmp_path / "test.jsonl").read_text().splitlines()]
    card = (tmp_path / "README.md").read_text()

    assert len(rows) == 3
    assert all(sum(row["label_posterior"].values()) == pytest.approx(1.0, abs=1e-5) for row in rows)
    assert [max(row["label_posterior"], key=row["label_posterior"].get) for row in rows] == ["A", "B", "D"]
    assert "## Label posteriors" in card
    assert "Dawid-Skene model (`dawid_skene`, crowd-kit) fitted on 12 judgments of 4 items" in card
    assert "- Parameters: iterations=" in card and "n_iter=100, tol=1e-05" in card


def test_the_csv_export_has_a_label_posterior_column(fitted, tmp_path):
    gold_export(project=fitted.project, fmt="csv", out_dir=tmp_path)

    with (tmp_path / "test.csv").open(newline="", encoding="utf-8") as file:
        rows = list(csv.DictReader(file))

    assert len(rows) == 3
    assert [json.loads(row["label_posterior"]) for row in rows][0] == {"A": 0.666667, "B": 0.333333, "C": 0.0, "D": 0.0}


def test_the_settings_page_chooses_the_projects_model(client):
    world = answered_world()
    data = {
        "name": world.project.name,
        "languages": "id, Indonesian, ltr",
        "authors_per_concept": "2",
        "answerers_per_item": "3",
        "ambiguity_threshold": "1",
        "plan_seed": "0",
        "judging_mode": "fixed",
        "adaptive_confidence": "95",
        "adaptive_min_judges": "2",
        "aggregation_model": "mace",
    }

    page = _page(client, world.admin, "project_settings", "xa").content.decode()
    response = client.post(reverse("project_settings", args=["xa"]), data)

    assert '<option value="dawid_skene" selected>Dawid-Skene</option>' in page
    assert response.status_code == 302
    world.project.refresh_from_db()
    assert world.project.aggregation_model == "mace"
