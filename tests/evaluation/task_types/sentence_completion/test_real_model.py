"""A real model on ArabCulture items: SmolLM2-135M (llama.cpp on loopback) answers 4 fixture items as an
MCQ with the harness's Arabic prompt (Arabic keys), and scores their Arabic completions by likelihood.
What a 135M model gets right is not asserted; that every call succeeded, every reply is read and scored
against the author's answer and the leaderboard adds them up is.

llama-cpp-python gives a token holding part of a multi-byte character the text "" ("بالخبز" echoes as
'ب', 'ال', '', '', 'ب', ...), so the client finds the continuation's tokens by echoing the context alone
(evaluation/llm/client.py `_continuation_start`); before that, every Arabic likelihood call failed."""

from __future__ import annotations

import pytest

from annotation.models import Project
from annotation.services.imports import items_import
from evaluation.models import Prediction
from evaluation.services.endpoints import endpoint_create
from evaluation.services.runs import run_create
from evaluation.task_types.sentence_completion.leaderboard import project_leaderboard
from tests.annotation.task_types.sentence_completion.data import jsonl
from tests.evaluation.task_types.sentence_completion.test_benchmark import CASES

pytestmark = pytest.mark.django_db(transaction=True)
GOLDS = [c[0]["answer_key"]["english_answer_key"] for c in CASES]


def _project_and_endpoint(local_model):
    items_import(
        path_or_bytes=jsonl([c[0] for c in CASES]), project_slug="smol-ac", format="arabculture", language="ar"
    )
    endpoint = endpoint_create(
        name="smollm2-local",
        base_url=local_model.base_url,
        model=local_model.model,
        is_local=True,
        timeout_seconds=300,
        max_concurrency=1,
    )
    return Project.objects.get(slug="smol-ac"), endpoint


def test_smollm2_answers_the_arabic_mcq(local_model, eager_tasks):
    project, endpoint = _project_and_endpoint(local_model)

    run = run_create(
        kind="benchmark",
        endpoints=[endpoint],
        project=project,
        parameters={"templates": ["mcq_ar_country"], "max_tokens": 8, "temperature": 0},
    )

    run.refresh_from_db()
    predictions = list(Prediction.objects.filter(run=run).order_by("item_id"))
    print("ArabCulture MCQ, SmolLM2-135M:", [(p.answer, p.gold, p.rule, p.reply) for p in predictions])
    assert (run.status, run.calls_done, run.calls_failed) == ("done", 4, 0)
    assert [p.gold for p in predictions] == GOLDS
    assert all(p.answer in {"A", "B", "C", ""} and p.correct == (p.answer == p.gold) for p in predictions)
    right = sum(p.parsed and p.correct for p in predictions)
    board = project_leaderboard(project=project)["models"]["smollm2-local"]
    assert board["by_mode"] == {"mcq": {"n": 4, "correct": right, "accuracy": right / 4}}
    assert board["mcq_minus_completion"] is None


def test_smollm2_scores_arabic_completions_by_likelihood(local_model, eager_tasks):
    project, endpoint = _project_and_endpoint(local_model)

    run = run_create(
        kind="benchmark",
        endpoints=[endpoint],
        project=project,
        # SmolLM2 has no BOS token: llama-cpp-python aligns echoed log-probabilities only after this one.
        parameters={"templates": ["completion_en_none"], "mode": "likelihood", "prompt_prefix": "<|im_start|>"},
    )

    run.refresh_from_db()
    predictions = list(Prediction.objects.filter(run=run).order_by("item_id"))
    print("ArabCulture completion, SmolLM2-135M:", [(p.answer, p.gold, p.rule) for p in predictions])
    assert (run.status, run.calls_done, run.calls_failed) == ("done", 12, 0)
    assert [p.gold for p in predictions] == GOLDS
    assert all(p.parsed and p.answer in {"A", "B", "C"} and p.correct == (p.answer == p.gold) for p in predictions)
    right = sum(p.correct for p in predictions)
    board = project_leaderboard(project=project)["models"]["smollm2-local"]
    assert board["by_mode"] == {"completion": {"n": 4, "correct": right, "accuracy": right / 4}}
