"""ArabCulture as a benchmark: the twelve built-in prompts equal lm-evaluation-harness's wording (three
location contexts x Arabic / English, MCQ and completion), and MCQ (Arabic keys) and completion
(likelihood) runs against the scripted test server give the expected accuracies."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command

from annotation.services.imports import items_import
from annotation.task_types import get_task_type
from annotation.task_types.base import ExportRecord, GoldInfo, ItemRecord
from evaluation.models import Call, Prediction, Run
from evaluation.templating import render
from tests.annotation.task_types.sentence_completion.data import jsonl, row
from tests.annotation.task_types.sentence_completion.harness import doc_to_text
from tests.evaluation.helpers import make_endpoint

TT = get_task_type("sentence_completion")
# (row, the model's MCQ reply to the Arabic prompt, the completion the likelihood script favours)
CASES = [
    (row(worker="Egypt-1", sample="1", k=0, answer="B", country="Egypt"), "ب", 1),  # right, right
    (row(worker="Egypt-1", sample="2", k=1, answer="A", country="Egypt"), "الإجابة الصحيحة هي ج", 2),  # wrong, wrong
    (row(worker="KSA-1", sample="1", k=2, answer="C", country="KSA"), "ج. " + "x", 2),  # right, right
    (row(worker="KSA-1", sample="2", k=3, answer="B", country="KSA"), "لا أعرف", 1),  # unparsed, right
]


def _record(released: dict) -> ExportRecord:
    payload = TT.normalize_payload(released)
    item = ItemRecord(1, "x", "judged", "import", 1, "Egypt-1", 1, released["sub_topic"], "Food", {}, 0, 0, payload)
    return ExportRecord(item, (), GoldInfo(1, "gold", "", {}), {}, 0)


@pytest.mark.parametrize("lang", ["ar", "en"])
@pytest.mark.parametrize("context", ["none", "region", "country"])
@pytest.mark.parametrize("mode", ["mcq", "completion"])
def test_each_prompt_is_the_harness_wording(mode, lang, context):
    released = {
        **CASES[0][0],
        "options": {**CASES[0][0]["options"], "text": [" " + t for t in CASES[0][0]["options"]["text"]]},
    }
    template = next(t for t in TT.benchmark().templates if t.name == f"{mode}_{lang}_{context}")

    item = TT.benchmark_item(_record(released), gold_key="author")

    assert render(template.text, item.fields) == doc_to_text(released, lang=lang, context=context, mcq=mode == "mcq")


def _cli(*args) -> dict:
    out = io.StringIO()
    call_command(*args, stdout=out)
    return json.loads(out.getvalue().strip().splitlines()[-1])


@pytest.fixture
def project(db):
    items_import(
        path_or_bytes=jsonl([c[0] for c in CASES]), project_slug="ac-bench", format="arabculture", language="ar"
    )
    return "ac-bench"


@pytest.mark.django_db(transaction=True)
def test_mcq_with_arabic_keys_and_completion_by_likelihood(project, llm_server, eager_tasks):
    replies = [{"match": c[0]["first_statement"], "reply": c[1]} for c in CASES]
    # The favoured completion of each item scores -0.1 a token, the others the server's default -1.0.
    likelihood = {" " + c[0]["options"]["text"][c[2]]: -0.1 for c in CASES}
    llm_server.configure(replies=replies, likelihood=likelihood)
    make_endpoint(llm_server, name="alpha", model="alpha-model")

    mcq = _cli(
        "benchmark", "run", "--project", project, "--endpoint", "alpha", "--template", "mcq_ar_country", "--wait"
    )
    completion = _cli(
        "benchmark",
        "run",
        "--project",
        project,
        "--endpoint",
        "alpha",
        "--template",
        "completion_ar_country",
        "--mode",
        "likelihood",
        "--wait",
    )

    mcq_predictions = list(Prediction.objects.filter(run_id=mcq["run"]).order_by("item_id"))
    assert [(p.answer, p.parsed, p.correct) for p in mcq_predictions] == [
        ("B", True, True),
        ("C", True, False),
        ("C", True, True),
        ("", False, False),
    ]
    likelihood_predictions = list(Prediction.objects.filter(run_id=completion["run"]).order_by("item_id"))
    assert [(p.answer, p.correct) for p in likelihood_predictions] == [
        ("B", True),
        ("C", False),
        ("C", True),
        ("B", True),
    ]
    assert _cli("benchmark", "report", str(mcq["run"]), "--json")["overall"]["accuracy"] == 0.5
    assert _cli("benchmark", "report", str(completion["run"]), "--json")["overall"]["accuracy"] == 0.75
    # What the server got is the harness's prompt for the item.
    first = Call.objects.filter(run_id=mcq["run"]).order_by("id").first()
    sent = first.request["messages"][-1]["content"]
    assert sent == doc_to_text(CASES[0][0], lang="ar", context="country", mcq=True)
    assert Run.objects.get(pk=completion["run"]).parameters["mode"] == "likelihood"
