"""Benchmark runs in likelihood mode, end to end in process: each option scored through the engine
(operation "score"), the most likely picked once all of an item's options are in, under token and byte
normalisation. Against the scripted test server (exact picks, scores and accuracy; the refusal of an
endpoint without log-probabilities) and the real SmolLM2 (5 id-csqa items)."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from annotation.errors import InvalidInput
from annotation.models import Category, Concept, Project, ProjectLanguage
from annotation.services.imports import items_import
from evaluation.benchmarks.report import benchmark_report
from evaluation.models import BenchmarkCase, Call, Prediction, Run
from evaluation.services.endpoints import endpoint_create
from evaluation.services.runs import run_create
from qc.models import GoldDecision
from tests.evaluation.benchmarks.world import _item, label_project
from tests.evaluation.helpers import make_endpoint
from tests.evaluation.shared_data import idcsqa

pytestmark = pytest.mark.django_db(transaction=True)

# The server's tokens are words; a scripted value applies to the tokens of the text the prompt ends
# with; every other token is -1.0 (the server's default).
SCRIPT = {
    " Surabaya": [-2.0],  # 1 token, 9 bytes: -2.0 a token, -2/9 a byte  <- best by bytes
    " Bandung": [-3.0],  # -3.0, -3/8
    " Kota Bandung lama": [-1.0, -1.5, -2.5],  # -5/3, -5/18  <- best by tokens
    " Jakarta Raya": [-2.0, -2.0],  # -2.0, -4/13
    " Medan": [-4.0],  # -4.0, -4/6
    " Bogor": [-0.5],  # item 3: best either way; its other options get the default -1.0
}
CITIES = ["Surabaya", "Bandung", "Kota Bandung lama", "Jakarta Raya", "Medan"]
ITEMS = [
    # (question, options, gold): picks by tokens C, C, A; by bytes A, A, A
    ("Kota apa yang dijuluki Kota Kembang?", CITIES, "A"),  # tokens wrong, bytes right
    ("Kota apa yang paling ramai?", CITIES, "D"),  # both wrong
    ("Kota hujan di Jawa Barat?", ["Bogor", "Depok", "Bekasi", "Cianjur", "Garut"], "A"),  # both right
]
TOKEN_SCORES = (-2.0, -3.0, -5.0 / 3, -2.0, -4.0)
BYTE_SCORES = (-2.0 / 9, -3.0 / 8, -5.0 / 18, -4.0 / 13, -4.0 / 6)


def _project(slug: str = "bench-ll") -> tuple[Project, list]:
    project = Project.objects.create(name="Bench likelihood", slug=slug, task_type="csqa")
    ProjectLanguage.objects.create(project=project, code="id", name="Indonesian")
    category = Category.objects.create(project=project, name="kota")
    items = []
    for index, (question, options, gold) in enumerate(ITEMS):
        concept = Concept.objects.create(project=project, category=category, name=f"kota {index}")
        item = _item(project, concept, {"question": question, "choices": options, "answer": gold})
        GoldDecision.objects.create(
            item=item, policy="csqa_majority_v1", outcome="gold", details={"majority": gold, "author_answer": gold}
        )
        items.append(item)
    return project, items


def _cli(*args) -> dict:
    out = io.StringIO()
    call_command(*args, stdout=out)
    return json.loads(out.getvalue().strip().splitlines()[-1])


@pytest.fixture
def scripted(llm_server, eager_tasks):
    llm_server.configure(likelihood=SCRIPT)
    return make_endpoint(llm_server, name="alpha", model="alpha-model")


@pytest.mark.parametrize(
    ("normalisation", "picks", "accuracy", "first_scores"),
    [("tokens", "CCA", 1 / 3, TOKEN_SCORES), ("bytes", "AAA", 2 / 3, BYTE_SCORES)],
)
def test_the_most_likely_option_is_picked_under_each_normalisation(
    scripted, llm_server, normalisation, picks, accuracy, first_scores
):
    project, items = _project()

    started = _cli(
        "benchmark",
        "run",
        "--project",
        project.slug,
        "--endpoint",
        "alpha",
        "--template",
        "question_choices",
        "--mode",
        "likelihood",
        "--normalise",
        normalisation,
        "--wait",
    )
    report = _cli("benchmark", "report", str(started["run"]), "--json")

    run = Run.objects.get(pk=started["run"])
    assert run.parameters["mode"] == "likelihood"
    assert (run.parameters["normalisation"], run.parameters["prompt_prefix"]) == (normalisation, "")
    assert (run.status, run.total, run.calls_done, run.calls_failed) == ("done", 15, 15, 0)
    calls = list(Call.objects.filter(run=run).order_by("unit_key"))
    assert {c.operation for c in calls} == {"score"}
    assert sorted(c.unit_key for c in calls) == sorted(f"item{i.pk}:{letter}" for i in items for letter in "ABCDE")
    first = [c for c in calls if c.unit_key.startswith(f"item{items[0].pk}:")]
    assert [c.request["continuation"] for c in first] == [f" {city}" for city in CITIES]
    assert first[0].request["context"].startswith("Question: Kota apa yang dijuluki Kota Kembang?\nChoices:\nA. ")
    assert first[0].request["context"].endswith("E. Medan\nAnswer:")
    assert first[2].logprobs == {
        "tokens": [" Kota", " Bandung", " lama"],
        "token_logprobs": [-1.0, -1.5, -2.5],
        "byte_length": 18,
    }
    # Usage from the server: the prompt's words, one generated token.
    assert all(c.completion_tokens == 1 and c.prompt_tokens > 10 for c in calls)
    assert run.completion_tokens == 15
    assert llm_server.stats()["completions"] == 1 + 15  # the probe, then one call per option

    predictions = list(Prediction.objects.filter(run=run).order_by("item_id"))
    assert [(p.answer, p.parsed, p.correct, p.gold) for p in predictions] == [
        (picks[0], True, picks[0] == "A", "A"),
        (picks[1], True, False, "D"),
        ("A", True, True, "A"),
    ]
    assert {p.rule for p in predictions} == {f"likelihood:{normalisation}"}
    raw = json.loads(predictions[0].reply)
    assert raw["normalisation"] == normalisation
    assert [o["answer"] for o in raw["options"]] == list("ABCDE")
    assert tuple(o["score"] for o in raw["options"]) == first_scores
    assert raw["options"][2] == {
        "answer": "C",
        "continuation": " Kota Bandung lama",
        "tokens": [" Kota", " Bandung", " lama"],
        "token_logprobs": [-1.0, -1.5, -2.5],
        "byte_length": 18,
        "score": first_scores[2],
    }
    picked = {c.unit_key: c.pk for c in calls}
    assert predictions[0].call_id == picked[f"item{items[0].pk}:{picks[0]}"]  # the picked option's call
    third = json.loads(predictions[2].reply)["options"]
    assert [o["token_logprobs"] for o in third] == [[-0.5], [-1.0], [-1.0], [-1.0], [-1.0]]
    assert (report["predictions"], report["parsed"], report["accuracy"]) == (3, 3, accuracy)


def test_a_prefix_goes_before_every_context_and_into_the_probe(scripted, llm_server):
    project, _items = _project()

    run = run_create(
        kind="benchmark",
        endpoints=[scripted],
        project=project,
        parameters={"templates": ["helm"], "mode": "likelihood", "prompt_prefix": "<|im_start|>"},
    )

    run.refresh_from_db()
    assert run.status == "done" and Prediction.objects.filter(run=run).count() == 3
    contexts = set(Call.objects.filter(run=run).values_list("request__context", flat=True))
    assert len(contexts) == 3 and all(c.startswith("<|im_start|>The following are") for c in contexts)
    assert "<|im_start|>" + ", ".join(str(n) for n in range(1, 31)) in llm_server.stats()["by_prompt"]  # the probe


def test_an_option_that_fails_for_good_makes_its_prediction_a_failed_call(scripted, llm_server):
    project, items = _project()
    llm_server.configure(
        likelihood=SCRIPT,
        faults=[
            {"match": "Answer: Medan", "then": [{"status": 400}], "per_prompt": True},  # E of items 1, 2
            {"match": "Answer: Bogor", "then": [{"status": 500}]},  # retried, then scored
        ],
    )

    run = run_create(
        kind="benchmark",
        endpoints=[scripted],
        project=project,
        parameters={"templates": ["question_choices"], "mode": "likelihood", "normalisation": "bytes"},
    )

    run.refresh_from_db()
    assert (run.status, run.total, run.calls_done, run.calls_failed) == ("done", 15, 13, 2)
    predictions = list(Prediction.objects.filter(run=run).order_by("item_id"))
    failed = {c.unit_key: c.pk for c in Call.objects.filter(run=run, status="failed")}
    assert sorted(failed) == sorted(f"item{i.pk}:E" for i in items[:2])
    assert [(p.answer, p.parsed, p.correct, p.rule, p.reply) for p in predictions[:2]] == [
        ("", False, False, "call_failed", "")
    ] * 2
    assert [p.call_id for p in predictions[:2]] == [failed[f"item{i.pk}:E"] for i in items[:2]]
    assert (predictions[2].answer, predictions[2].correct, predictions[2].rule) == ("A", True, "likelihood:bytes")
    assert Call.objects.get(run=run, unit_key=f"item{items[2].pk}:A").attempts == 2


@pytest.mark.parametrize(
    ("server", "reason"),
    [
        ({"completion_logprobs": False}, "the reply has no log-probabilities for the echoed prompt"),
        ({"default": {"status": 400, "body": "echo is not supported"}}, "HTTP 400"),
    ],
)
def test_an_endpoint_without_logprobs_is_refused_before_anything_is_created(llm_server, eager_tasks, server, reason):
    project, _items = _project()
    make_endpoint(llm_server, name="alpha", model="alpha-model")
    llm_server.configure(**server)

    with pytest.raises(CommandError) as caught:
        _cli("benchmark", "run", "--project", project.slug, "--endpoint", "alpha", "--mode", "likelihood", "--wait")

    message = str(caught.value)
    assert message.startswith("Endpoint “alpha” cannot be used for likelihood scoring. The endpoint does not")
    assert reason in message
    assert "mode: Not supported by this endpoint." in message
    assert (Run.objects.count(), Call.objects.count(), BenchmarkCase.objects.count()) == (0, 0, 0)
    assert Prediction.objects.count() == 0
    assert llm_server.stats()["completions"] == 1  # the probe only


def test_likelihood_is_for_choice_task_types_and_takes_known_options(scripted):
    labels, _ = label_project()
    project, _ = _project()
    cases = [
        (labels, {"mode": "likelihood"}, "Likelihood scoring needs options to score"),
        (project, {"mode": "likelihood", "normalisation": "chars"}, "Unknown normalisation “chars”"),
        (project, {"mode": "likelihood", "system": "Jawab."}, "A system prompt is for chat mode"),
        (project, {"mode": "guess"}, "Mode “guess” is not offered; use chat, completion, likelihood."),
    ]
    for target, parameters, message in cases:
        with pytest.raises(InvalidInput) as caught:
            run_create(kind="benchmark", endpoints=[scripted], project=target, parameters=parameters)
        assert caught.value.message.startswith(message)
    assert Run.objects.count() == 0


# --- the real model ---------------------------------------------------------------------------------

REAL_ITEMS = 20  # the issue: "scores 20 items by likelihood"
BOS = "<|im_start|>"  # SmolLM2's BOS: without it llama-cpp-python's echoed logprobs are misaligned


def test_the_real_model_scores_twenty_csqa_items_by_likelihood(local_model, eager_tasks, tmp_path):
    rows = idcsqa("v2_human_gen")[:REAL_ITEMS]
    path = tmp_path / "twenty.json"
    path.write_text(json.dumps(rows, ensure_ascii=False), encoding="utf-8")
    summary = items_import(path_or_bytes=str(path), project_slug="smol-ll", format="id-csqa", language="id")
    project = Project.objects.get(slug=summary.project)
    endpoint = endpoint_create(
        name="smollm2-local",
        base_url=local_model.base_url,
        model=local_model.model,
        is_local=True,
        timeout_seconds=120,
        max_concurrency=1,
    )
    parameters = {"templates": ["question_choices"], "mode": "likelihood", "normalisation": "bytes"}

    # Without the BOS prefix the probe finds the misalignment and nothing is created.
    with pytest.raises(InvalidInput) as caught:
        run_create(kind="benchmark", endpoints=[endpoint], project=project, parameters=parameters)
    assert caught.value.message.startswith("Endpoint “smollm2-local” cannot be used for likelihood scoring.")
    assert "misaligned" in caught.value.message
    assert Run.objects.count() == 0

    run = run_create(
        kind="benchmark", endpoints=[endpoint], project=project, parameters={**parameters, "prompt_prefix": BOS}
    )
    run.refresh_from_db()
    predictions = list(Prediction.objects.filter(run=run).order_by("item_id"))
    calls = {c.pk: c for c in Call.objects.filter(run=run)}

    assert summary.items_created == REAL_ITEMS
    calls_expected = REAL_ITEMS * 5
    assert (run.status, run.total, run.calls_done, run.calls_failed) == ("done", calls_expected, calls_expected, 0)
    assert len(predictions) == REAL_ITEMS
    for prediction in predictions:
        assert prediction.parsed and prediction.answer in tuple("ABCDE") and prediction.rule == "likelihood:bytes"
        assert prediction.correct == (prediction.answer == prediction.gold)
        raw = json.loads(prediction.reply)
        assert [o["answer"] for o in raw["options"]] == list("ABCDE")
        for option in raw["options"]:
            assert option["tokens"] and all(v <= 0 for v in option["token_logprobs"])
            assert "".join(option["tokens"]).endswith(option["continuation"])
            assert option["score"] == pytest.approx(sum(option["token_logprobs"]) / option["byte_length"])
        best = max(range(5), key=lambda i: (raw["options"][i]["score"], -i))
        assert prediction.answer == "ABCDE"[best]
        assert calls[prediction.call_id].unit_key == f"item{prediction.item_id}:{prediction.answer}"
    for call in calls.values():
        assert call.operation == "score" and call.request["context"].startswith(BOS + "Question: ")
        # Real usage from llama.cpp: the whole prompt's tokens and the one generated token.
        assert call.completion_tokens == 1 and call.prompt_tokens > 30
        assert call.response["model"] == local_model.model
    report = benchmark_report(run=run)
    assert (report["predictions"], report["parsed"]) == (REAL_ITEMS, REAL_ITEMS)
    assert report["accuracy"] == pytest.approx(sum(p.correct for p in predictions) / REAL_ITEMS)
    print(f"likelihood run on SmolLM2: {REAL_ITEMS} items, accuracy {report['accuracy']}")
