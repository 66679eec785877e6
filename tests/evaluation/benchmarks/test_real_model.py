"""A real model in the benchmark engine: SmolLM2-135M (llama.cpp on loopback) answers 20 released
id-csqa items with each of the paper's three templates, in process (the run machinery is the same as on
a worker; tests/evaluation/benchmarks/test_benchmark_workers.py covers the worker). What a 135M model
answers is not asserted; that every reply is stored raw, extracted by the rules and scored is."""

from __future__ import annotations

import json

import pytest

from annotation.models import Project
from annotation.services.imports import items_import
from evaluation.benchmarks.report import benchmark_report
from evaluation.models import Call, Prediction
from evaluation.services.endpoints import endpoint_create
from evaluation.services.runs import run_create
from tests.evaluation.shared_data import idcsqa

pytestmark = pytest.mark.django_db(transaction=True)

ITEMS = 20
TEMPLATES = ["mmlu_concept", "question_choices", "helm"]


def test_the_real_model_answers_twenty_items_with_each_template(local_model, eager_tasks, tmp_path):
    rows = idcsqa("v2_human_gen")[:ITEMS]
    path = tmp_path / "twenty.json"
    path.write_text(json.dumps(rows, ensure_ascii=False), encoding="utf-8")
    summary = items_import(path_or_bytes=str(path), project_slug="smol-bench", format="id-csqa", language="id")
    endpoint = endpoint_create(
        name="smollm2-local",
        base_url=local_model.base_url,
        model=local_model.model,
        is_local=True,
        timeout_seconds=120,
        max_concurrency=1,  # llama.cpp's server answers one request at a time
    )

    run = run_create(
        kind="benchmark",
        endpoints=[endpoint],
        project=Project.objects.get(slug=summary.project),
        parameters={"templates": TEMPLATES, "max_tokens": 8, "temperature": 0},
    )
    run.refresh_from_db()
    report = benchmark_report(run=run)
    predictions = list(Prediction.objects.filter(run=run))
    calls = list(Call.objects.filter(run=run))

    assert summary.items_created == ITEMS
    assert (run.status, run.total, run.calls_done, run.calls_failed) == ("done", ITEMS * 3, ITEMS * 3, 0)
    assert len(predictions) == ITEMS * 3
    assert {p.template for p in predictions} == set(TEMPLATES)
    replies = {c.pk: c.text for c in calls}
    assert all(p.reply == replies[p.call_id] for p in predictions)  # stored raw, as the model wrote it
    assert all(p.parsed == (p.answer in tuple("ABCDE")) for p in predictions)
    assert all(p.correct == (p.parsed and p.answer == p.gold) for p in predictions)
    assert {p.gold for p in predictions} <= set("ABCDE")
    assert all(c.completion_tokens >= 1 and c.prompt_tokens > 20 for c in calls)  # real usage, from the server
    assert report["predictions"] == ITEMS * 3
    assert report["parsed"] == sum(p.parsed for p in predictions)
    assert report["accuracy"] == pytest.approx(sum(p.correct for p in predictions) / (ITEMS * 3))
