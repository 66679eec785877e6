"""A real model in CI: SmolLM2-135M-Instruct (llama.cpp on loopback) answers 5 prompts and judges 5 pairs in
both orders, through a real Celery worker. A 135M model's verdicts are unreliable: the test checks that
every call is recorded and that the report counts exactly what the replies say."""

from __future__ import annotations

import json

from annotation.models import Item
from annotation.services.imports import items_import
from evaluation.local_model import MODEL_ALIAS
from evaluation.models import Call
from evaluation.services.endpoints import endpoint_create
from evaluation.services.runs import run_create
from evaluation.task_types.preference.judge_prompts import parse_verdict
from evaluation.task_types.preference.judge_report import judge_report
from tests.evaluation.helpers import run_finished, wait_for
from tests.evaluation.test_run_workers import pytestmark, workers  # noqa: F401  (celery + transactional db; workers)
from tests.factories import UserFactory
from tests.qc.test_run_faults import broker  # noqa: F401  (the Redis broker fixture of `workers`)

PROMPTS = [
    "Apa ibu kota Indonesia?",
    "Sebutkan dua buah tropis.",
    "Berapa 3 + 4?",
    "Terjemahkan 'good morning'.",
    "Apa itu batik?",
]


def _import(slug: str, fmt: str, rows: list[dict]) -> object:
    data = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows).encode()
    items_import(path_or_bytes=data, project_slug=slug, format=fmt, language="id", creator=UserFactory())
    return Item.objects.filter(project__slug=slug).first().project


def test_smollm2_answers_five_prompts_and_judges_five_pairs(workers, local_model):  # noqa: F811
    endpoint = endpoint_create(
        name="smollm2-local",
        base_url=local_model.base_url,
        model=local_model.model,
        is_local=True,
        timeout_seconds=120,
        max_concurrency=1,
    )
    prompts = _import(
        "smol-prompts",
        "preference-prompts",
        [{"id": f"s{i}", "category": "open question", "prompt": p} for i, p in enumerate(PROMPTS)],
    )
    pairs = _import(
        "smol-pairs",
        "indopref",
        [
            {
                "id": f"k{i}",
                "domain": "open question",
                "language": "id",
                "input": p,
                "response_1": f"Jawaban yang benar untuk: {p}",
                "response_2": "Tidak tahu.",
                "actual_score": "Response 1",
            }
            for i, p in enumerate(PROMPTS)
        ],
    )
    workers.start("w1")

    answers = run_create(
        kind="preference_responses",
        endpoints=[endpoint],
        project=prompts,
        parameters={"max_tokens": 48, "temperature": 0},
    )
    wait_for(lambda: run_finished(answers), 240, "the response run", workers.output)
    judged = run_create(
        kind="preference_judge",
        endpoints=[endpoint],
        project=pairs,
        parameters={"languages": ["en"], "max_tokens": 96, "temperature": 0},
    )
    wait_for(lambda: run_finished(judged), 300, "the judge run", workers.output)

    assert (answers.status, answers.calls_done, answers.total) == ("done", 5, 5), workers.output()
    for item in Item.objects.filter(project=prompts).select_related("current_version"):
        (response,) = item.current_version.payload["responses"]
        assert response["model"] == MODEL_ALIAS and response["text"].strip()
        assert response["usage"]["prompt_tokens"] > 0 and 0 < response["usage"]["completion_tokens"] <= 48
    assert (judged.status, judged.calls_done, judged.total) == ("done", 10, 10), workers.output()
    (result,) = judge_report(judged)["results"]
    texts = {c.unit_key: c.text for c in Call.objects.filter(run=judged)}
    chosen_hits = 0
    for key, text in texts.items():
        position = parse_verdict(text)
        order = key.rpartition("|")[2]
        chosen_hits += position == (1 if order == "ab" else 2)
    assert result["verdicts"] == 10
    assert result["accuracy"] == round(100 * chosen_hits / 10, 2)
    assert result["unparsed"] == sum(parse_verdict(t) is None for t in texts.values())
