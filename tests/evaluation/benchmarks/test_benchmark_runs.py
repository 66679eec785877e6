"""Benchmark runs end to end, in process: the scripted test server answers some items right, some
wrong, some unparseably; `benchmark report --json` gives exact accuracies and breakdowns."""

from __future__ import annotations

import io
import json

import numpy as np
import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from annotation.models import Membership
from evaluation.benchmarks import metrics
from evaluation.benchmarks.report import benchmark_report
from evaluation.models import BenchmarkCase, Call, Prediction, Run
from evaluation.services.runs import run_create
from tests.evaluation.benchmarks.world import choice_project, label_project
from tests.evaluation.helpers import make_endpoint
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db(transaction=True)
HANDLER = "tests.evaluation.benchmarks.script:reply"


def _cli(*args) -> dict:
    out = io.StringIO()
    call_command(*args, stdout=out)
    return json.loads(out.getvalue().strip().splitlines()[-1])


def _ci(values: list[bool]) -> dict:
    return metrics.summarise(values, seed=metrics.SEED)


@pytest.fixture
def scripted(llm_server, eager_tasks):
    llm_server.configure(handler=HANDLER)
    alpha = make_endpoint(llm_server, name="alpha", model="alpha-model")
    beta = make_endpoint(llm_server, name="beta", model="beta-model")
    return alpha, beta


def test_two_endpoints_two_templates_exact_report(scripted):
    project, items = choice_project()

    started = _cli(
        "benchmark",
        "run",
        "--project",
        project.slug,
        "--endpoint",
        "alpha",
        "--endpoint",
        "beta",
        "--template",
        "question_choices",
        "--template",
        "helm",
        "--wait",
    )
    report = _cli("benchmark", "report", str(started["run"]), "--json")

    run = Run.objects.get(pk=started["run"])
    assert (run.kind, run.status, run.total, run.calls_done) == ("benchmark", "done", 20, 20)
    assert BenchmarkCase.objects.filter(run=run).count() == 5  # the approved and excluded items are left out
    assert (report["predictions"], report["parsed"], report["accuracy"]) == (20, 18, 0.45)
    by = {
        group: {k: (v["accuracy"], v["n"]) for k, v in report[group].items()}
        for group in ("by_endpoint", "by_template", "by_category")
    }
    assert by == {
        "by_endpoint": {"alpha": (0.7, 10), "beta": (0.2, 10)},
        "by_template": {"helm": (0.5, 10), "question_choices": (0.4, 10)},
        "by_category": {"adat": (0.25, 8), "makanan": (7 / 12, 12)},
    }
    assert report["by_endpoint"]["alpha"] == _ci([True] * 7 + [False] * 3)
    # The overall interval by hand: the seeded bootstrap of 9 right of 20 (metrics' binomial draw).
    resampled = np.random.default_rng(metrics.SEED).binomial(20, 9 / 20, size=metrics.RESAMPLES) / 20
    low, high = np.percentile(resampled, [2.5, 97.5])
    assert (report["overall"]["ci_low"], report["overall"]["ci_high"], report["overall"]["n"]) == (low, high, 20)
    assert report["by_category"]["adat"] == _ci([False, True] * 2 + [False] * 4)
    assert (report["human_baseline"]["accuracy"], report["human_baseline"]["n"]) == (0.6, 5)
    for row in [report["overall"], *report["by_endpoint"].values(), report["human_baseline"]]:
        assert 0 <= row["ci_low"] <= row["accuracy"] <= row["ci_high"] <= 1
    assert [(u["item"], u["endpoint"], u["template"], u["reply"]) for u in report["unparsed"]] == [
        (items[3].pk, "alpha", "helm", "Saya tidak tahu."),
        (items[3].pk, "alpha", "question_choices", "Saya tidak tahu."),
    ]
    wrong = Prediction.objects.get(run=run, item=items[2], endpoint__name="alpha", template="question_choices")
    assert (wrong.reply, wrong.answer, wrong.parsed, wrong.correct, wrong.gold) == (
        "The correct answer is D.",
        "D",
        True,
        False,
        "C",
    )
    assert wrong.rule


def test_the_prompt_is_the_papers_template_rendered(scripted):
    project, items = choice_project()

    run = run_create(
        kind="benchmark",
        endpoints=[scripted[0]],
        project=project,
        parameters={"templates": ["mmlu_concept"], "items": [items[0].pk]},
    )

    call = Call.objects.get(run=run)
    assert call.request["messages"] == [
        {
            "role": "user",
            "content": 'The following are multiple choice questions (with answers) about "konsep soal1".\n'
            "Apa jawaban soal1?\nA. pilihan soal1 A\nB. pilihan soal1 B\nC. pilihan soal1 C\n"
            "D. pilihan soal1 D\nE. pilihan soal1 E\nAnswer:",
        }
    ]
    assert call.request["params"] == {"temperature": 0.0, "max_tokens": 32}


def test_the_majority_gold_key_scores_against_the_answerers(scripted):
    project, _items = choice_project()

    started = _cli(
        "benchmark",
        "run",
        "--project",
        project.slug,
        "--endpoint",
        "alpha",
        "--template",
        "question_choices",
        "--gold",
        "majority",
    )
    report = _cli("benchmark", "report", str(started["run"]), "--json")

    # majority keys A, C, C, D, A against replies A, B, D, (unparsed), E
    assert (report["gold_key"], report["predictions"], report["accuracy"]) == ("majority", 5, 0.2)


def test_a_second_planning_adds_nothing(scripted):
    from evaluation.kinds import get_kind

    project, _items = choice_project()
    run = run_create(kind="benchmark", endpoints=[scripted[0]], project=project, parameters={"templates": ["helm"]})
    before = (Call.objects.filter(run=run).count(), Prediction.objects.filter(run=run).count())

    from evaluation.calls import calls_add

    total = calls_add(run=run, units=list(get_kind("benchmark").units(run)))

    assert before == (5, 5)
    assert (total, Call.objects.filter(run=run).count(), BenchmarkCase.objects.filter(run=run).count()) == (5, 5, 5)
    assert Prediction.objects.filter(run=run).count() == 5


def test_a_label_run(scripted):
    project, _items = label_project()

    started = _cli("benchmark", "run", "--project", project.slug, "--endpoint", "alpha", "--wait")
    report = _cli("benchmark", "report", str(started["run"]), "--json")

    assert (report["predictions"], report["parsed"], report["accuracy"]) == (8, 6, 0.5)
    assert {k: (v["accuracy"], v["n"]) for k, v in report["by_template"].items()} == {
        "label_en": (0.5, 4),
        "label_id": (0.5, 4),
    }
    # The validators' majority per pair, a tie counting as "entailment" (test_report_sections.py).
    assert (report["human_baseline"]["accuracy"], report["human_baseline"]["n"]) == (0.5, 4)


def test_refusals_change_nothing(scripted):
    project, _items = choice_project()

    for args, message in (
        (["--gold", "nobody"], "Unknown gold key “nobody”"),
        (["--template", "nope"], "Unknown template nope"),
        (["--category", "olahraga"], "The project has no category olahraga"),
        (["--source", "llm_gen"], "No item of the project is in this slice"),
    ):
        with pytest.raises(CommandError) as refused:
            call_command("benchmark", "run", "--project", project.slug, "--endpoint", "alpha", *args)
        assert message in str(refused.value)
    assert (Run.objects.count(), Call.objects.count(), Prediction.objects.count()) == (0, 0, 0)


def test_completion_mode_sends_plain_prompts_and_scores_as_chat_does(scripted, llm_server):
    """Base models: the same prompts as plain completions (no chat template, no system prompt)."""
    project, items = choice_project(slug="bench-plain")

    started = _cli(
        "benchmark",
        "run",
        "--project",
        project.slug,
        "--endpoint",
        "alpha",
        "--template",
        "question_choices",
        "--template",
        "helm",
        "--mode",
        "completion",
        "--wait",
    )
    report = _cli("benchmark", "report", str(started["run"]), "--json")
    run = Run.objects.get(pk=started["run"])
    sent = Call.objects.filter(run=run).values_list("request", flat=True)

    assert (run.status, run.total, run.calls_done) == ("done", 10, 10)
    assert (report["predictions"], report["parsed"], report["accuracy"]) == (10, 8, 0.7)
    assert all(set(request) == {"prompt", "params"} for request in sent)
    assert (llm_server.stats()["completions"], llm_server.stats()["chat"]) == (10, 0)
    assert Prediction.objects.get(run=run, item=items[1], template="helm").reply == "Jawaban: B"


def test_completion_mode_refuses_a_system_prompt_and_creates_nothing(scripted):
    project, _items = choice_project(slug="bench-plain-system")
    before = (Run.objects.count(), Call.objects.count())

    with pytest.raises(
        CommandError, match="A system prompt is for chat mode; a plain completion sends only the prompt."
    ):
        _cli(
            "benchmark",
            "run",
            "--project",
            project.slug,
            "--endpoint",
            "alpha",
            "--mode",
            "completion",
            "--system",
            "Jawab dengan satu huruf.",
        )

    assert (Run.objects.count(), Call.objects.count()) == before


def test_a_call_failed_for_good_is_left_out_of_every_accuracy(scripted, llm_server, client):
    # Both endpoints' soal1 requests answer 400 (not retried); soal1 is the one both would get right.
    llm_server.configure(handler=HANDLER, faults=[{"match": "soal1?", "then": [{"status": 400}, {"status": 400}]}])
    project, _items = choice_project()

    run = run_create(
        kind="benchmark",
        endpoints=list(scripted),
        project=project,
        parameters={"templates": ["question_choices"]},
    )
    report = benchmark_report(run=run)
    admin = UserFactory(username="bench-admin")
    Membership.objects.create(project=project, user=admin, role="admin")
    client.force_login(admin)
    page = client.get(f"/p/{project.slug}/benchmarks/{run.pk}/").content.decode()

    run.refresh_from_db()
    assert (run.status, run.calls_done, run.calls_failed) == ("done", 8, 2)
    assert Prediction.objects.filter(run=run, rule="call_failed").count() == 2
    # Over the 8 replies: alpha right on soal2 and soal5, beta ("A") on none; not 2 of 10.
    assert (report["predictions"], report["without_reply"], report["accuracy"]) == (10, 2, 0.25)
    assert {name: figures["accuracy"] for name, figures in report["by_endpoint"].items()} == {"alpha": 0.5, "beta": 0.0}
    assert {name: figures["n"] for name, figures in report["by_endpoint"].items()} == {"alpha": 4, "beta": 4}
    assert '<dd id="overall-without-reply">2</dd>' in page
