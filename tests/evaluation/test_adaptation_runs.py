"""LLM_ADAPT end to end: CommonsenseQA lines through every step (relevance, adapt, translate, back-translate)
with scripted replies from the real test server, through the engine (eager), into QC."""

from __future__ import annotations

import json

import pytest

from annotation.errors import InvalidInput
from annotation.models import Item
from evaluation.models import AdaptationState, Call, FilteredDraft, GeneratedItem, Run
from evaluation.services.draft_summary import drafts_summary
from evaluation.services.runs import run_create
from evaluation.task_types.csqa.adaptation.commonsenseqa import parse_jsonl
from tests.evaluation.helpers import make_endpoint
from tests.factories import make_csqa_project

pytestmark = pytest.mark.django_db(transaction=True)


def line(qid, question, concept, answer="A"):
    return json.dumps(
        {
            "id": qid,
            "question": question,
            "question_concept": concept,
            "choices": {"label": list("ABCDE"), "text": ["one", "two", "three", "four", "five"]},
            "answerKey": answer,
        }
    )


JSONL = "\n".join(
    [
        line("q1", "What do people eat with rice?", "rice"),
        line("q2", "Where would you find snow?", "snow"),
        line("q3", "James went skiing in Michigan. What did he bring?", "skiing"),
        line("q4", "What is eaten at breakfast with cream cheese?", "bagel"),
    ]
)


@pytest.fixture
def eager(settings):
    settings.CELERY_TASK_ALWAYS_EAGER = True
    return settings


def test_every_step_runs_and_each_question_ends_kept_or_filtered_with_its_reason(llm_server, eager):
    llm_server.configure(handler="tests.evaluation.adapt_script:reply")
    world = make_csqa_project(slug="adapt")
    endpoint = make_endpoint(llm_server, name="gpt4", model="adapt-model")
    questions = [q.__dict__ for q in parse_jsonl(JSONL)]

    run = run_create(
        kind="llm_adapt",
        endpoints=[endpoint],
        project=world.project,
        user=world.admin,
        parameters={
            "questions": questions,
            "location": "Indonesia",
            "language": "Indonesian",
            "second_language": "Sundanese",
            "threshold": 0.9,
        },
    )

    run.refresh_from_db()
    steps = sorted(Call.objects.filter(run=run).values_list("template", flat=True))
    # q1..q4: 5 + 5 + 0 (names) + 5 votes; q1 to_language; q2, q3, q4 adapt_all; q3 adapt_name;
    # q1, q2, q3 translate and back-translate (q4 lost its concept).
    assert {t: steps.count(t) for t in set(steps)} == {
        "relevance": 15,
        "to_language": 1,
        "adapt_all": 3,
        "adapt_name": 1,
        "translate": 3,
        "back_translate": 3,
    }
    assert (run.status, run.total, run.calls_done, run.calls_failed) == ("done", 26, 26, 0)
    assert drafts_summary(run) == {
        "items_created": 2,
        "filtered": 2,
        "filtered_by_reason": {"below_threshold": 1, "concept_missing": 1},
        "adaptation": {"questions": 4, "relevant": 1, "irrelevant": 3, "by_names_or_places": 1, "kept": 2},
    }
    states = {s.source_id: s for s in AdaptationState.objects.filter(run=run)}
    assert {k: (s.status, s.reason, s.relevant) for k, s in states.items()} == {
        "q1": ("kept", "", True),
        "q2": ("kept", "", False),
        "q3": ("filtered", "below_threshold", False),
        "q4": ("filtered", "concept_missing", False),
    }
    assert states["q1"].votes == {str(i): True for i in range(1, 6)}
    assert states["q3"].steps["relevance"] == {"reason": "names_or_places", "names": ["James", "Michigan"]}
    assert states["q3"].steps["adapt_name"]["question"] == "Budi pergi berselancar di Bali. Apa yang dia bawa?"
    assert states["q3"].steps["check"]["method"] == "chrf" and states["q3"].steps["check"]["score"] < 0.9
    kept = {
        g.steps["source"]["id"]: g
        for g in GeneratedItem.objects.filter(run=run).select_related("item__current_version")
    }
    assert {k: (g.backtranslation_method, g.backtranslation_score) for k, g in kept.items()} == {
        "q1": ("chrf", 1.0),
        "q2": ("chrf", 1.0),
    }
    assert kept["q2"].item.current_version.payload == {
        "question": "SU Di mana kamu bisa menemukan salju di Indonesia?",
        "choices": ["SU Puncak Jaya", "SU Pantai", "SU Pasar", "SU Sawah", "SU Dapur"],
        "answer": "A",
    }
    assert kept["q1"].steps["to_language"]["payload"]["question"] == "ID What do people eat with rice?"
    assert set(Item.objects.filter(project=world.project).values_list("source", "status", "author")) == {
        ("llm_adapt", "submitted", None)
    }
    assert FilteredDraft.objects.get(run=run, reason="concept_missing").detail == (
        "The question does not contain the concept “roti”."
    )


def test_a_bad_question_refuses_the_run_and_creates_nothing(llm_server, eager):
    world = make_csqa_project(slug="adapt")
    endpoint = make_endpoint(llm_server, name="gpt4")

    with pytest.raises(InvalidInput, match="Question 1: answerKey must be one of A-E"):
        run_create(
            kind="llm_adapt",
            endpoints=[endpoint],
            project=world.project,
            parameters={
                "questions": [
                    {"id": "x", "question": "Q?", "concept": "c", "choices": ["a", "b", "c", "d", "e"], "answer": "Z"}
                ]
            },
        )
    assert Run.objects.count() == 0
