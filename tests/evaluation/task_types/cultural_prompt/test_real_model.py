"""A real model on KALAHI: SmolLM2-135M (llama.cpp on loopback) scores released prompts by likelihood
(each response as the assistant's reply, MC1/MC2/MC3) and answers them open-ended (greedy, 256 new
tokens), the replies compared with the references. What a 135M model scores is not asserted; that every
response is scored, every metric stored and the report shows them is.

The issue's ten prompts by default (the shortest ones: about 80 scored responses, minutes on an idle
2-core machine, far longer when it is shared); GOTONG_KALAHI_REAL_PROMPTS=2 runs two for a quick look."""

from __future__ import annotations

import json
import os

import pytest
from django.test import Client

from annotation.models import Membership, Project
from annotation.services.imports import items_import
from annotation.services.projects import membership_add
from evaluation.models import Call, Prediction
from evaluation.services.endpoints import endpoint_create
from evaluation.services.runs import run_create
from evaluation.task_types.cultural_prompt.report import kalahi_run_report
from tests.annotation.task_types.cultural_prompt.world import kalahi_file, kalahi_rows
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db(transaction=True)

PROMPTS = int(os.environ.get("GOTONG_KALAHI_REAL_PROMPTS") or 10)
BOS = "<|im_start|>"


def _length(row: dict[str, str]) -> int:
    responses = row["relevant_answers"].split(";") + row["irrelevant_answers"].split(";")
    return sum(len(row["prompt"]) + len(text) for text in responses)


def test_smollm2_scores_prompts_by_likelihood_and_open_ended(local_model, eager_tasks):
    # The shortest prompts (with their responses): llama-cpp-python scores each response with `echo`,
    # several seconds per call on a shared 2-core machine.
    rows = sorted(kalahi_rows(), key=_length)[:PROMPTS]
    items_import(path_or_bytes=kalahi_file(rows), project_slug="smol-kalahi", format="kalahi", language="fil")
    project = Project.objects.get(slug="smol-kalahi")
    endpoint = endpoint_create(
        name="smollm2-local",
        base_url=local_model.base_url,
        model=local_model.model,
        is_local=True,
        timeout_seconds=300,
        max_concurrency=1,
    )
    responses = sum(len(r["relevant_answers"].split(";")) + len(r["irrelevant_answers"].split(";")) for r in rows)

    run = run_create(
        kind="benchmark",
        endpoints=[endpoint],
        project=project,
        parameters={
            "templates": ["chatml"],
            "mode": "likelihood",
            "normalisation": "bytes",
            "prompt_prefix": BOS,
            "statuses": ["approved"],
        },
    )
    run.refresh_from_db()
    assert (run.status, run.total, run.calls_done, run.calls_failed) == ("done", responses, responses, 0)
    predictions = list(Prediction.objects.filter(run=run))
    assert len(predictions) == PROMPTS
    for p in predictions:
        metrics = json.loads(p.reply)["metrics"]
        assert set(metrics) == {"mc1", "mc2", "mc2_published", "mc3"}
        assert p.correct == (metrics["mc1"] == 1.0) and 0 <= metrics["mc2"] <= 1 and 0 <= metrics["mc3"] <= 1
        assert 0.3 < metrics["mc2_published"] < 0.7  # the double exponentiation's narrow band
    report = kalahi_run_report(run=run)["endpoints"]["smollm2-local"]
    assert report["items"] == PROMPTS
    assert report["mc1"] == pytest.approx(sum(p.correct for p in predictions) / PROMPTS)
    print("KALAHI likelihood, SmolLM2-135M:", report)

    open_run = run_create(
        kind="benchmark",
        endpoints=[endpoint],
        project=project,
        parameters={"open_ended": True, "max_tokens": 256, "temperature": 0, "statuses": ["approved"]},
    )
    open_run.refresh_from_db()
    assert (open_run.status, open_run.total, open_run.calls_done) == ("done", PROMPTS, PROMPTS)
    replies = {c.pk: c.text for c in Call.objects.filter(run=open_run)}
    open_predictions = list(Prediction.objects.filter(run=open_run))
    assert len(open_predictions) == PROMPTS
    assert all(p.reply == replies[p.call_id] and p.rule.startswith("overlap:") for p in open_predictions)
    scores = kalahi_run_report(run=open_run)["open_ended"]["smollm2-local"]
    assert set(scores) == {"items", "chrf", "bleu", "rouge_l"}
    print("KALAHI open-ended, SmolLM2-135M:", scores)

    # Shown: both runs on the project's KALAHI scores page.
    admin = UserFactory(username="smol-kalahi-admin")
    membership_add(project=project, user=admin, role=Membership.Role.ADMIN)
    client = Client()
    client.force_login(admin)
    page = client.get("/p/smol-kalahi/kalahi-scores/")
    assert page.status_code == 200
    html = page.content.decode()
    assert f'id="kalahi-run-{run.pk}"' in html and f'id="kalahi-run-{open_run.pk}"' in html
    assert html.count("<td>smollm2-local</td>") >= 1 and '<th scope="row">smollm2-local</th>' in html
