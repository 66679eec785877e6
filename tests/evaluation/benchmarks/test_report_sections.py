"""The report's breakdowns by language and label, the mean and spread over templates per endpoint, and
the human baseline as the papers define it (the answerers' or validators' majority against gold)."""

from __future__ import annotations

import numpy as np
import pytest

from annotation.models import Judgment, ProjectLanguage
from evaluation.benchmarks import metrics
from evaluation.benchmarks.report import benchmark_report
from evaluation.services.runs import run_create
from tests.evaluation.benchmarks.world import choice_project, label_project
from tests.evaluation.helpers import make_endpoint
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db(transaction=True)
HANDLER = "tests.evaluation.benchmarks.script:reply"


@pytest.fixture
def scripted(llm_server, eager_tasks):
    llm_server.configure(handler=HANDLER)
    alpha = make_endpoint(llm_server, name="alpha", model="alpha-model")
    beta = make_endpoint(llm_server, name="beta", model="beta-model")
    return alpha, beta


def _acc(section: dict) -> dict:
    return {name: (row["accuracy"], row["n"]) for name, row in section.items()}


def test_language_label_and_template_spread(scripted):
    project, _items = choice_project()

    run = run_create(
        kind="benchmark",
        endpoints=list(scripted),
        project=project,
        parameters={"templates": ["question_choices", "helm"]},
    )
    report = benchmark_report(run=run)

    # One project language: every item is Indonesian.
    assert _acc(report["by_language"]) == {"id": (0.45, 20)}
    assert report["by_language"]["id"] == metrics.summarise([True] * 9 + [False] * 11)
    # Gold letters A..E: alpha right on A, B (both templates), C (helm only), E (both); beta on A only.
    assert _acc(report["by_label"]) == {"A": (1.0, 4), "B": (0.5, 4), "C": (0.25, 4), "D": (0.0, 4), "E": (0.5, 4)}
    # alpha: helm 4/5, question_choices 3/5; beta: 1/5 each. Templates in name order, population std.
    alpha = np.array([0.8, 0.6])
    assert report["template_spread"]["alpha"] == {
        "mean": float(alpha.mean()),
        "std": float(alpha.std()),
        "min": 0.6,
        "max": 0.8,
        "templates": 2,
        "by_template": {
            "helm": metrics.summarise([True] * 4 + [False]),
            "question_choices": metrics.summarise([True] * 3 + [False] * 2),
        },
    }
    assert (report["template_spread"]["alpha"]["mean"], report["template_spread"]["alpha"]["std"]) == (
        pytest.approx(0.7),
        pytest.approx(0.1),
    )
    beta = report["template_spread"]["beta"]
    assert (beta["mean"], beta["std"], beta["min"], beta["max"]) == (0.2, 0.0, 0.2, 0.2)


def test_several_project_languages_leave_the_item_language_unknown(scripted):
    project, _items = choice_project()
    ProjectLanguage.objects.create(project=project, code="su", name="Sundanese")

    run = run_create(kind="benchmark", endpoints=[scripted[0]], project=project, parameters={"templates": ["helm"]})

    assert _acc(benchmark_report(run=run)["by_language"]) == {"": (0.8, 5)}


def test_csqa_human_baseline_is_the_answerers_majority(scripted):
    project, items = choice_project()
    first, second, third = UserFactory(), UserFactory(), UserFactory()
    # soal2 (author B, recorded majority C): answers B, B, C -> majority B, right (pooled it would be 2 of 3).
    # soal5 (author E): answers A, E -> a tie, the answer given first (A) wins -> wrong.
    for item, answers in ((items[1], ("B", "B", "C")), (items[4], ("A", "E"))):
        for user, answer in zip((first, second, third), answers, strict=False):
            Judgment.objects.create(
                project=project, item=item, user=user, kind="answer", round=1, value={"answer": answer}, flags={}
            )

    run = run_create(kind="benchmark", endpoints=[scripted[0]], project=project, parameters={"templates": ["helm"]})
    human = benchmark_report(run=run)["human_baseline"]

    # soal1 A=A, soal2 B=B, soal3 C=C, soal4 D=D (recorded majorities), soal5 A!=E
    assert human == {
        **metrics.summarise([True] * 4 + [False]),
        "method": "answerers_majority",
        "no_majority": None,
    }
    assert (human["accuracy"], human["n"]) == (0.8, 5)


def test_nli_human_baseline_is_the_validators_majority_with_entailment_for_no_majority(scripted):
    project, _items = label_project()

    run = run_create(kind="benchmark", endpoints=[scripted[0]], project=project, parameters={})
    human = benchmark_report(run=run)["human_baseline"]

    # validators (gold, "neutral"): entailment -> tie -> entailment, right; contradiction -> tie ->
    # entailment, wrong; neutral -> neutral, right; contradiction -> tie -> entailment, wrong.
    assert human == {
        **metrics.summarise([True, False, True, False]),
        "method": "validators_majority",
        "no_majority": "entailment",
    }
    assert (human["accuracy"], human["n"]) == (0.5, 4)
