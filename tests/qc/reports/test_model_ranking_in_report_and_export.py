"""The models' ranking (Bradley-Terry over the preference pairs, fitted in the background) in the report's
JSON (`report --json`, the page's report.json, the API) and beside the gold export (ranking.json and the
data card's section), with exact values on a hand-made project.

The project: 3 prompts, each with four responses, two by m1 and two by m2, which both rater groups score
(relevance + fluency) 10, 8, 6 and 4 in the order m1, m2, m1, m2. Every prompt gives the same four pairs
between the two models: m1 wins three (10 > 8, 10 > 4, 6 > 4), m2 one (8 > 6). Bradley-Terry's scores are
then exactly 3/4 and 1/4, and since every prompt is alike, every bootstrap draw over prompts gives the same
scores: the intervals are [0.75, 0.75] and [0.25, 0.25].
"""

import io
import json
from datetime import UTC, datetime

import pytest
from django.core.management import call_command
from django.urls import reverse
from rest_framework.test import APIClient

from annotation.aggregation.ranking import model_ranking_refit, model_ranking_save
from annotation.models import Assignment, Item, ModelRanking
from annotation.selectors.judgments import judge_item_for
from annotation.services.judgments import judgment_record
from annotation.task_types.base import RankedModels
from qc.exports import gold_export
from qc.exports.runs import export_run_create
from qc.exports.selectors import export_file_path
from tests.annotation.task_types.preference.world import make_world, plan
from tests.factories import make_csqa_project

pytestmark = pytest.mark.django_db

MODELS = ("m1", "m2", "m1", "m2")
SCORES = (5, 4, 3, 2)  # relevance and fluency of r1..r4: combined 10, 8, 6, 4
FITTED = datetime(2026, 3, 1, 9, 30, tzinfo=UTC)

RANKING = {
    "method": "bradley-terry",
    "fitted_at": "2026-03-01T09:30:00+00:00",
    "pairs": 12,
    "resamples": 200,
    "interval": 0.95,
    "models": [
        {"rank": 1, "model": "m1", "score": 0.75, "low": 0.75, "high": 0.75, "pairs": 12, "wins": 9},
        {"rank": 2, "model": "m2", "score": 0.25, "low": 0.25, "high": 0.25, "pairs": 12, "wins": 3},
    ],
}


def _prompts() -> bytes:
    rows = [
        {
            "id": f"P{p:02d}",
            "category": "math",
            "prompt": f"Soal {p}",
            "input": "",
            "responses": [{"model": m, "text": f"Jawaban {r + 1} soal {p}."} for r, m in enumerate(MODELS)],
        }
        for p in range(3)
    ]
    return "".join(json.dumps(row) + "\n" for row in rows).encode()


def _rated_world():
    world = make_world(slug="rank", raters_per_group=1, prompts=_prompts())
    plan(world)
    for assignment in Assignment.objects.filter(project=world.project, kind="rate").select_related("user"):
        item = Item.objects.get(pk=assignment.target_item_id)
        by_text = {r["text"]: int(r["id"][1:]) for r in item.current_version.payload["responses"]}
        shown = judge_item_for(assignment=assignment, user=assignment.user, task_type_name="preference")
        ratings, best = [], None
        for response in shown.view["responses"]:
            r = by_text[response["text"]]
            ratings.append({"relevance": SCORES[r - 1], "fluency": SCORES[r - 1]})
            if r == 1:
                best = response["position"]
        judgment_record(
            assignment_id=assignment.pk, user=assignment.user, data={"ratings": ratings, "best": best, "comment": ""}
        )
    return world


def _report_json(slug: str) -> dict:
    out = io.StringIO()
    call_command("report", slug, "--json", stdout=out)
    return json.loads(out.getvalue())


def test_the_fitted_ranking_is_in_the_reports_json_the_page_download_and_the_api_with_exact_values():
    world = _rated_world()
    assert model_ranking_refit(project=world.project) is not None
    ModelRanking.objects.filter(project=world.project).update(fitted_at=FITTED)

    report = _report_json("rank")
    api = APIClient()
    api.force_login(world.admin)
    from_api = api.get("/api/projects/rank/report/").json()
    api.force_login(world.admin)
    download = api.get(reverse("report_json", args=["rank"])).json()

    assert (report["project"], report["task_type"], report["model_ranking"]) == ("rank", "preference", RANKING)
    assert from_api["model_ranking"] == RANKING
    assert download["model_ranking"] == RANKING
    assert sorted(report) == ["model_ranking", "preference", "project", "task_type"]


def test_before_the_first_fit_the_ranking_is_null_and_a_task_type_that_ranks_no_models_has_none():
    make_world(slug="unfitted", raters_per_group=1, prompts=_prompts())
    make_csqa_project(slug="qa")

    assert _report_json("unfitted")["model_ranking"] is None
    assert "model_ranking" not in _report_json("qa")


def test_the_gold_export_writes_ranking_json_and_the_data_cards_section(tmp_path):
    world = _rated_world()
    model_ranking_refit(project=world.project)
    ModelRanking.objects.filter(project=world.project).update(fitted_at=FITTED)
    out = io.StringIO()

    call_command("export_gold", "rank", "--format", "jsonl", "--out", str(tmp_path), stdout=out)

    assert json.loads((tmp_path / "ranking.json").read_text("utf-8")) == {"project": "rank", **RANKING}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["README.md", "ranking.json", "test.jsonl"]
    assert out.getvalue().splitlines()[-2:] == [
        f"ranking -> {tmp_path / 'ranking.json'}",
        f"data card -> {tmp_path / 'README.md'}",
    ]
    card = (tmp_path / "README.md").read_text("utf-8")
    section = card[card.index("## Model ranking") : card.index("## Licence")]
    assert section.splitlines() == [
        "## Model ranking",
        "",
        "The models behind the responses, ranked by a Bradley-Terry fit over 12 pairwise preferences between "
        "responses of different models, fitted on 2026-03-01 09:30 UTC. A model's score is its strength (the "
        "scores sum to 1; a model beats another with probability score / (score + other's score)); its 95% "
        "interval is a percentile bootstrap over items (200 resamples). The same figures are in `ranking.json`.",
        "",
        "| rank | model | score | 95% interval | pairs | wins |",
        "|---|---|---|---|---|---|",
        "| 1 | m1 | 0.7500 | 0.7500 to 0.7500 | 12 | 9 |",
        "| 2 | m2 | 0.2500 | 0.2500 to 0.2500 | 12 | 3 |",
        "",
    ]


def test_an_unknown_interval_is_null_in_ranking_json_and_na_on_the_card(tmp_path):
    world = make_world(slug="few", raters_per_group=1, prompts=_prompts())
    ranking = [
        {"model": "m1", "score": 0.6, "low": 0.51, "high": 0.7, "pairs": 4, "wins": 3, "rank": 1},
        {"model": "m2", "score": 0.4, "low": None, "high": None, "pairs": 4, "wins": 1, "rank": 2},
    ]
    model_ranking_save(project=world.project, ranked=RankedModels(ranking, 4, 200), seconds=0.1)
    ModelRanking.objects.filter(project=world.project).update(fitted_at=FITTED)

    result = gold_export(project=world.project, fmt="csv", out_dir=tmp_path)

    assert (result.files, result.extra) == ({"test": "test.csv"}, {"ranking": "ranking.json"})
    assert json.loads((tmp_path / "ranking.json").read_text("utf-8"))["models"] == [
        {"rank": 1, "model": "m1", "score": 0.6, "low": 0.51, "high": 0.7, "pairs": 4, "wins": 3},
        {"rank": 2, "model": "m2", "score": 0.4, "low": None, "high": None, "pairs": 4, "wins": 1},
    ]
    card = (tmp_path / "README.md").read_text("utf-8")
    assert "| 1 | m1 | 0.6000 | 0.5100 to 0.7000 | 4 | 3 |\n| 2 | m2 | 0.4000 | n/a | 4 | 1 |\n" in card


def test_an_export_run_publishes_ranking_json_beside_the_splits(settings, tmp_path, django_capture_on_commit_callbacks):
    settings.MEDIA_ROOT = tmp_path
    world = _rated_world()
    model_ranking_refit(project=world.project)
    ModelRanking.objects.filter(project=world.project).update(fitted_at=FITTED)

    with django_capture_on_commit_callbacks(execute=True):
        run = export_run_create(project=world.project, fmt="parquet", user=world.admin)

    run.refresh_from_db()
    assert (run.status, run.progress, run.total) == ("done", 3, 3)
    assert run.files == {"test": "test.parquet", "ranking": "ranking.json", "readme": "README.md"}
    assert json.loads(export_file_path(run=run, name="ranking.json").read_text("utf-8")) == {
        "project": "rank",
        **RANKING,
    }
