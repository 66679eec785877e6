"""The human baseline of the published Indonesian HUMAN_GEN test file (Putri et al. 2024): imported
into a project, frozen by a benchmark run's planning (no model is asked), and compared with the value
computed here straight from the JSON: the majority of the answerers against the author's key."""

from __future__ import annotations

import json

import pytest

from annotation.models import Project
from annotation.services.imports import items_import
from evaluation.benchmarks.report import benchmark_report
from evaluation.calls import calls_add
from evaluation.kinds import get_kind
from evaluation.models import BenchmarkCase, Call
from evaluation.services.endpoints import endpoint_create
from evaluation.services.runs import run_create
from tests.evaluation.helpers import runs_stay_pending
from tests.qc.helpers import ind_file

pytestmark = pytest.mark.django_db(transaction=True)


def _expected(rows: list[dict]) -> tuple[int, int]:
    """Independently of the app: per item the most common answer of the answerers (W1..W6 in number
    order, the file's codes), a tie going to the answer given first, against `answer_creator`."""
    right = 0
    for row in rows:
        answers = [row["answers"][code] for code in sorted(row["answers"], key=lambda c: int(c[1:]))]
        counts = {answer: answers.count(answer) for answer in answers}
        top = max(counts.values())
        winner = next(answer for answer in answers if counts[answer] == top)
        right += winner == row["answer_creator"]
    return right, len(rows)


def test_the_human_baseline_of_the_indonesian_test_file():
    path = ind_file()
    rows = json.loads(path.read_text(encoding="utf-8"))
    right, total = _expected(rows)
    items_import(path_or_bytes=path, project_slug="ind", format="id-csqa", language="id")
    endpoint = endpoint_create(name="never-asked", base_url="http://127.0.0.1:9/v1", model="none", is_local=True)

    with runs_stay_pending():
        run = run_create(
            kind="benchmark",
            endpoints=[endpoint],
            project=Project.objects.get(slug="ind"),
            parameters={"templates": ["helm"], "gold_key": "author"},
        )
        calls_add(run=run, units=list(get_kind("benchmark").units(run)))  # the planning step, no call made
    report = benchmark_report(run=run)

    assert (right, total) == (1485, 1498)
    assert (BenchmarkCase.objects.filter(run=run).count(), Call.objects.filter(run=run).count()) == (1498, 1498)
    assert Call.objects.filter(run=run).exclude(status="pending").count() == 0
    human = report["human_baseline"]
    assert (human["method"], human["n"]) == ("answerers_majority", 1498)
    assert human["accuracy"] == right / total == 0.9913217623497997
    assert human["ci_low"] < human["accuracy"] < human["ci_high"]
    # every item carries the answerers' answers, not only their majority
    assert sum(
        len(answers) for answers in BenchmarkCase.objects.filter(run=run).values_list("human_answers", flat=True)
    ) == sum(len(row["answers"]) for row in rows)
