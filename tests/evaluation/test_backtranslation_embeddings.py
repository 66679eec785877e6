"""Back-translation check with the endpoint's embeddings: an endpoint offering them gets an `embed` call
(the test server's /v1/embeddings) per translated item and the cosine is the score; without them, chrF.
Scores are exact: the test server's vector of a text is the first 8 bytes of its SHA-256 / 255."""

from __future__ import annotations

import hashlib

import pytest

from evaluation.models import AdaptationState, Call, GeneratedItem
from evaluation.services.runs import run_create
from evaluation.task_types.csqa.adaptation import backtranslation
from tests.evaluation.helpers import make_endpoint
from tests.factories import make_csqa_project

pytestmark = pytest.mark.django_db(transaction=True)

QUESTIONS = [
    {"id": "q1", "question": "What do people eat with rice?", "concept": "rice"},
    {"id": "q2", "question": "Where would you find snow?", "concept": "snow"},
    {"id": "q3", "question": "James went skiing in Michigan. What did he bring?", "concept": "skiing"},
]


def server_vector(text: str) -> list[float]:
    return [b / 255 for b in hashlib.sha256(text.lower().encode()).digest()[:8]]


def _run(llm_server, *, embeddings: bool):
    llm_server.configure(handler="tests.evaluation.adapt_script:reply")
    world = make_csqa_project(slug="emb" if embeddings else "chrf")
    endpoint = make_endpoint(llm_server, name="m", offers_embeddings=embeddings)
    questions = [{**q, "choices": ["one", "two", "three", "four", "five"], "answer": "A"} for q in QUESTIONS]
    run = run_create(
        kind="llm_adapt",
        endpoints=[endpoint],
        project=world.project,
        user=world.admin,
        parameters={"questions": questions, "language": "Indonesian", "second_language": "Sundanese"},
    )
    run.refresh_from_db()
    return run


def test_an_endpoint_with_embeddings_scores_by_cosine(llm_server, eager_tasks):
    run = _run(llm_server, embeddings=True)

    embeds = list(Call.objects.filter(run=run, operation="embed").order_by("unit_key"))
    assert [c.unit_key for c in embeds] == ["adapt:q1:embed", "adapt:q2:embed", "adapt:q3:embed"]
    assert llm_server.stats()["embeddings"] == 3
    assert (run.status, run.total, run.calls_done) == ("done", 23, 23)  # 10 votes, 4 steps, 3 x translate, back, embed
    states = {s.source_id: s for s in AdaptationState.objects.filter(run=run)}
    original = backtranslation.item_text(states["q3"].steps["adapted"]["payload"])
    back = states["q3"].steps["back_translate"]["reply"].strip()
    assert embeds[2].request["input"] == [original, back]
    assert embeds[2].response["vectors"] == [server_vector(original), server_vector(back)]
    q3 = backtranslation.cosine(server_vector(original), server_vector(back))
    assert q3 == 0.872
    assert {k: s.steps["check"] for k, s in states.items()} == {
        "q1": {"method": "embedding_cosine", "score": 1.0, "threshold": 0.9},
        "q2": {"method": "embedding_cosine", "score": 1.0, "threshold": 0.9},
        "q3": {"method": "embedding_cosine", "score": 0.872, "threshold": 0.9},
    }
    assert {k: (s.status, s.reason) for k, s in states.items()} == {
        "q1": ("kept", ""),
        "q2": ("kept", ""),
        "q3": ("filtered", "below_threshold"),
    }
    assert sorted(
        GeneratedItem.objects.filter(run=run).values_list("backtranslation_method", "backtranslation_score")
    ) == [("embedding_cosine", 1.0), ("embedding_cosine", 1.0)]


def test_without_embeddings_the_same_texts_are_scored_by_chrf(llm_server, eager_tasks):
    run = _run(llm_server, embeddings=False)

    assert not Call.objects.filter(run=run, operation="embed").exists()
    assert llm_server.stats()["embeddings"] == 0
    states = {s.source_id: s for s in AdaptationState.objects.filter(run=run)}
    original = backtranslation.item_text(states["q3"].steps["adapted"]["payload"])
    back = states["q3"].steps["back_translate"]["reply"].strip()
    assert backtranslation.chrf(back, original) == 0.8187
    assert {k: s.steps["check"] for k, s in states.items()} == {
        "q1": {"method": "chrf", "score": 1.0, "threshold": 0.9},
        "q2": {"method": "chrf", "score": 1.0, "threshold": 0.9},
        "q3": {"method": "chrf", "score": 0.8187, "threshold": 0.9},
    }
    assert sorted(
        GeneratedItem.objects.filter(run=run).values_list("backtranslation_method", "backtranslation_score")
    ) == [("chrf", 1.0), ("chrf", 1.0)]
