"""Completion mode on a server whose echoed tokens lose the letters of multi-byte characters (llama-cpp-
python gives a token holding part of an Arabic letter the text ""): the client finds the continuation's
tokens by echoing the context alone, and the ArabCulture likelihood run gives the same predictions as on
a server with exact token text."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command

from annotation.services.imports import items_import
from evaluation.llm.client import EndpointConfig, score_continuation
from evaluation.models import Prediction
from tests.annotation.task_types.sentence_completion.data import jsonl
from tests.evaluation.helpers import make_endpoint
from tests.evaluation.task_types.sentence_completion.test_benchmark import CASES


def test_the_continuations_tokens_are_found_by_echoing_the_context(llm_server):
    llm_server.configure(lossy_token_text=True, likelihood={" يتم تناول": [-0.1, -0.2]})
    endpoint = EndpointConfig(base_url=llm_server.url, model="test-model", is_local=True, timeout_seconds=5)

    result = score_continuation(endpoint=endpoint, context="Statement: أحمد", continuation=" يتم تناول")

    assert (result.tokens, result.token_logprobs, result.token_count) == ((" ", " "), (-0.1, -0.2), 2)
    assert result.byte_length == len(" يتم تناول".encode())
    assert llm_server.stats()["by_prompt"] == {"Statement: أحمد يتم تناول": 1, "Statement: أحمد": 1}


@pytest.mark.django_db(transaction=True)
def test_the_arabculture_likelihood_run_is_the_same_with_lossy_token_text(llm_server, eager_tasks):
    items_import(
        path_or_bytes=jsonl([c[0] for c in CASES]), project_slug="ac-lossy", format="arabculture", language="ar"
    )
    llm_server.configure(lossy_token_text=True, likelihood={" " + c[0]["options"]["text"][c[2]]: -0.1 for c in CASES})
    make_endpoint(llm_server, name="lossy")
    out = io.StringIO()

    call_command(
        "benchmark", "run", "--project", "ac-lossy", "--endpoint", "lossy", "--template", "completion_ar_country",
        "--mode", "likelihood", "--wait", stdout=out,
    )  # fmt: skip

    run = json.loads(out.getvalue().strip().splitlines()[-1])["run"]
    predictions = list(Prediction.objects.filter(run_id=run).order_by("item_id"))
    # test_benchmark's expectations on an exact server: right, wrong, right, right
    assert [(p.answer, p.parsed, p.correct) for p in predictions] == [
        ("B", True, True),
        ("C", True, False),
        ("C", True, True),
        ("B", True, True),
    ]
