"""Preference runs on real Celery workers and the test server: responses (one per prompt and endpoint,
even after a worker is killed mid-run) and a judge run with scripted, partly order-dependent verdicts."""

from __future__ import annotations

import json

import pytest
from django.db import connection
from django.test import Client

from annotation.models import Item, ItemVersion
from annotation.services.imports import items_import
from evaluation.models import Call, Run
from evaluation.services.runs import run_create
from evaluation.task_types.preference.judge_report import judge_report
from tests.evaluation.helpers import make_endpoint, run_finished, wait_for
from tests.evaluation.test_run_workers import LEASE, STALE, SWEEP, LLMWorkers
from tests.factories import UserFactory
from tests.qc.test_run_faults import broker  # noqa: F401  (the Redis broker fixture)

pytestmark = [pytest.mark.celery, pytest.mark.django_db(transaction=True)]

HANDLER = "tests.evaluation.task_types.preference.script:reply"
MODELS = ("m-gemini", "m-llama", "m-aya", "m-gpt4o-mini", "m-gpt4o")


@pytest.fixture
def workers(tmp_path, broker):  # noqa: F811
    assert connection.vendor == "postgresql", "these tests need PostgreSQL (set DATABASE_URL)"
    broker.flushdb()
    pool = LLMWorkers(tmp_path)
    try:
        yield pool
    finally:
        for proc in pool.procs:
            pool.kill(proc)


def _prompts_project(slug: str, n: int):
    rows = [{"id": f"Q{i}", "category": "open question", "prompt": f"Pertanyaan {i}?", "input": ""} for i in range(n)]
    data = "".join(json.dumps(r) + "\n" for r in rows).encode()
    items_import(
        path_or_bytes=data, project_slug=slug, format="preference-prompts", language="id", creator=UserFactory()
    )
    return Item.objects.filter(project__slug=slug).first().project


def _done(run: Run) -> int:
    return Call.objects.filter(run=run, status="done").count()


def test_a_response_run_gives_one_response_per_prompt_and_endpoint_even_after_a_worker_is_killed(workers, llm_server):
    llm_server.configure(handler=HANDLER, delay_ms=300)
    project = _prompts_project("resp", 6)
    endpoints = [make_endpoint(llm_server, name=f"e{i}", model=m, max_concurrency=1) for i, m in enumerate(MODELS)]
    first = workers.start("first", beat=True)
    run = run_create(kind="preference_responses", endpoints=endpoints, project=project, parameters={})

    wait_for(lambda: _done(run) >= 6, 60, "some progress", workers.output)
    workers.kill(first)
    at_kill = _done(run)
    workers.start("second", beat=True)
    wait_for(lambda: run_finished(run), STALE + SWEEP + LEASE + 60, "the run to finish", workers.output)

    assert (run.status, run.calls_done, run.total) == ("done", 30, 30), workers.output()
    assert 6 <= at_kill < 30
    for item in Item.objects.filter(project=project).select_related("current_version"):
        responses = item.current_version.payload["responses"]
        prompt = item.current_version.payload["prompt"]
        assert sorted(r["model"] for r in responses) == sorted(MODELS)
        assert sorted(r["id"] for r in responses) == ["r1", "r2", "r3", "r4", "r5"]
        assert {r["text"] for r in responses} == {f"{m} menjawab: {prompt}" for m in MODELS}
        assert all(r["usage"]["completion_tokens"] > 0 and r["latency_ms"] >= 300 for r in responses)
        assert {r["run_id"] for r in responses} == {run.pk}
        assert len({r["call_id"] for r in responses}) == 5
        assert ItemVersion.objects.filter(item=item).count() == 1 + 5


# Released-layout pairs: the human chose response_1 unless said otherwise. GOOD marks the response the
# scripted judge prefers; [bias] makes it always answer position 1; [garbled] gives no verdict.
PAIRS = [
    ("a1", "math", "Soal 1", "GOOD satu", "buruk satu", 1),  # judge right in both orders
    ("a2", "math", "Soal 2", "buruk dua", "GOOD dua", 2),  # right in both orders
    ("a3", "math", "Soal 3 [bias]", "GOOD tiga", "buruk tiga", 1),  # flips: right once
    ("a4", "safety", "Soal 4", "GOOD empat", "buruk empat", 2),  # people chose the other: wrong twice
    ("a5", "safety", "Soal 5 [garbled]", "GOOD lima", "buruk lima", 1),  # unreadable: wrong twice
]


def test_a_judge_run_with_scripted_verdicts_gives_the_expected_accuracy_and_inconsistency(workers, llm_server):
    llm_server.configure(handler=HANDLER)
    rows = [
        {
            "id": i,
            "domain": d,
            "language": "id",
            "input": x,
            "response_1": r1,
            "response_2": r2,
            "actual_score": f"Response {s}",
        }
        for i, d, x, r1, r2, s in PAIRS
    ]
    data = "".join(json.dumps(r) + "\n" for r in rows).encode()
    admin = UserFactory()
    items_import(path_or_bytes=data, project_slug="judge", format="indopref", language="id", creator=admin)
    project = Item.objects.filter(project__slug="judge").first().project
    endpoint = make_endpoint(llm_server, name="judge", model="judge-model", max_concurrency=4)
    workers.start("w1", beat=True)

    run = run_create(
        kind="preference_judge", endpoints=[endpoint], project=project, parameters={"languages": ["en", "id"]}
    )
    wait_for(lambda: run_finished(run), 60, "the judge run", workers.output)

    assert (run.status, run.calls_done, run.total) == ("done", 20, 20), workers.output()
    report = judge_report(run)
    assert report["human"] == {"alpha_pairs": None, "pairs": 5}  # the file's pairs, no ratings yet
    results = {r["language"]: r for r in report["results"]}
    # verdicts: a1 2/2, a2 2/2, a3 1/2, a4 0/2, a5 0/2 -> 5 of 10; math 5/6, safety 0/4
    for language in ("en", "id"):
        r = results[language]
        assert (r["pairs"], r["verdicts"], r["accuracy"]) == (5, 10, 50.0)
        assert r["per_category"] == {"math": round(100 * 5 / 6, 2), "safety": 0.0}
        assert r["average"] == round((100 * 5 / 6 + 0.0) / 2, 2)
        assert (r["inconsistent"], r["consistent_correct"], r["unparsed"]) == (0.2, 0.4, 2)

    # The pages an admin reaches: the run list links the accuracy page, which shows the same figures.
    client = Client()
    client.force_login(admin)
    runs_page = client.get("/p/judge/preference-runs/").content.decode()
    page = client.get(f"/p/judge/preference-runs/{run.pk}/judge/").content.decode()
    as_json = client.get(f"/p/judge/preference-runs/{run.pk}/judge/?format=json").json()
    assert f'href="/p/judge/preference-runs/{run.pk}/judge/"' in runs_page
    assert page.count("<td>50.0</td>") == 2 and page.count("<td>0.2</td>") == 2
    assert 'math</span> 83.33 · <span dir="auto">safety</span> 0.0' in page
    assert as_json["results"] == report["results"]
