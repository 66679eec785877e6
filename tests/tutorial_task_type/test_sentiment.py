"""The tutorial's task type on its own: the gold rule's every outcome, and the core's pages and export
showing it in its own words (the contract tests and the crawls run over it with every other task type)."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from annotation.models import Assignment
from annotation.task_types import get_task_type
from annotation.task_types.base import GoldCase, GoldOutcome, JudgmentRow
from qc.exports import gold_export
from tests.tutorial_task_type.world import make_world


def _case(*labels: str) -> GoldCase:
    judgments = tuple(JudgmentRow(n, 100 + n, 1, {"label": label}, {}) for n, label in enumerate(labels))
    return GoldCase(payload={"text": "x", "label": "positive"}, judgments=judgments, settings={}, judging_round=1)


@pytest.mark.parametrize(
    ("labels", "outcome"),
    [
        (
            ("negative", "negative"),
            GoldOutcome(
                "gold", "majority: 2 of 2 chose negative", {"label": "negative", "labels": ["negative", "negative"]}
            ),
        ),
        (
            ("positive", "neutral"),
            GoldOutcome(
                "no_gold",
                "tie: the judges disagree, a reviewer decides",
                {"label": None, "labels": ["positive", "neutral"]},
            ),
        ),
        (("neutral",), GoldOutcome("pending", "1 of 2 labels", {"label": None, "labels": ["neutral"]})),
        (("neutral", "happy"), GoldOutcome("pending", "1 of 2 labels", {"label": None, "labels": ["neutral"]})),
    ],
    ids=["agree", "tie", "one-label", "unknown-label"],
)
def test_gold_is_the_judges_majority_and_a_tie_gives_no_gold(labels, outcome):
    # The author's label (positive) never votes.
    assert get_task_type("sentiment").gold_decide(_case(*labels)) == outcome


@pytest.mark.django_db
def test_the_judging_page_shows_the_sentence_only_and_saves_a_label():
    world = make_world()
    judge = world.annotators[0]
    assignment = Assignment.objects.get(user=judge, kind="validate", target_item__external_id="s3")
    client = Client()
    client.force_login(judge)

    page = client.get(f"/p/senti/judge/{assignment.pk}/")
    saved = client.post(f"/p/senti/judge/{assignment.pk}/", {"label": "negative", "comment": ""})

    assert page.status_code == 200
    assert page.context["question"].view == {"text": "Antreannya panjang sekali."}
    assert '<p class="sentence big" id="sentence" dir="auto">Antreannya panjang sekali.</p>' in page.content.decode()
    assert saved.status_code == 302
    assert list(assignment.target_item.judgments.values_list("user__username", "value")) == [
        ("senti-w1", {"label": "negative"})
    ]


@pytest.mark.django_db
def test_the_report_page_counts_gold_ties_and_waiting_items():
    world = make_world()
    client = Client()
    client.force_login(world.reviewer)

    html = client.get("/p/senti/reports/").content.decode()

    assert '<td id="report-gold">1</td>' in html
    assert '<td id="report-no-gold">1</td>' in html
    assert '<td id="report-pending">2</td>' in html
    assert '<td id="report-agreed">1 / 2</td>' in html


@pytest.mark.django_db
def test_the_export_writes_gold_and_no_gold_rows(tmp_path):
    world = make_world()

    result = gold_export(project=world.project, fmt="jsonl", out_dir=tmp_path)

    rows = {
        split: [json.loads(line) for line in (tmp_path / name).read_text().splitlines()]
        for split, name in result.files.items()
    }

    def row(id_, text, label, author_label, labels, judges):
        keys = ("id", "text", "label", "author_label", "judge_labels", "judges", "language")
        return dict(zip(keys, (id_, text, label, author_label, labels, judges, "id"), strict=True))

    assert rows == {
        "gold": [row("s1", "Nasi gorengnya enak sekali.", "positive", None, ["positive", "positive"], ["W2", "W3"])],
        "no_gold": [
            row("s2", "Harganya lumayan.", None, None, ["positive", "negative"], ["W3", "W4"]),
            row("s3", "Antreannya panjang sekali.", None, "negative", [], []),
            row("s4", "Warung buka jam tujuh.", None, None, [], []),
        ],
    }
    assert "## Rows\n\ngold: 1, no_gold: 3\n" in (tmp_path / "README.md").read_text()
