"""KALAHI's likelihood templates are refused in another mode, with the reason: `chatml` writes out the
model's chat format (a chat endpoint applies its own) and, like `plain`, shows no responses to choose
from. A chat run without named templates has none of them to take; the open-ended template still runs
in chat mode. A refused run creates nothing."""

from __future__ import annotations

import pytest

from annotation.errors import InvalidInput
from evaluation.benchmarks.kind import Benchmark
from evaluation.models import Call, Run
from evaluation.services.endpoints import endpoint_create
from evaluation.services.runs import run_create
from tests.annotation.task_types.cultural_prompt.world import make_kalahi_project

pytestmark = pytest.mark.django_db

CHATML_IN_CHAT = (
    "Template chatml is meant for likelihood mode only, not chat: it writes out the model's chat format, which "
    "a chat endpoint applies itself, and it shows no responses to choose from (each response is scored as the "
    "assistant's reply). Start a likelihood run for it, or choose another template."
)
PLAIN_IN_COMPLETION = (
    "Template plain is meant for likelihood mode only, not completion: it shows no responses to choose from "
    "(each response is scored as its continuation). Start a likelihood run for it, or choose another template."
)
NONE_FOR_CHAT = (
    "None of this task type's templates is meant for a chat run (its templates: chatml: likelihood; "
    "plain: likelihood; open_ended: open-ended)."
)


@pytest.fixture
def world():
    world = make_kalahi_project(slug="kalahi-modes", rows=2)
    endpoint = endpoint_create(name="nowhere", base_url="http://127.0.0.1:9/v1", model="m", is_local=True)
    return world, endpoint


@pytest.mark.parametrize(
    ("parameters", "message", "field_error"),
    [
        ({"templates": ["chatml"], "mode": "chat"}, CHATML_IN_CHAT, "Likelihood mode only."),
        ({"templates": ["plain"], "mode": "completion"}, PLAIN_IN_COMPLETION, "Likelihood mode only."),
        ({"mode": "chat"}, NONE_FOR_CHAT, "None for this mode."),
    ],
)
def test_a_likelihood_template_in_another_mode_is_refused_with_its_reason(world, parameters, message, field_error):
    world, endpoint = world

    with pytest.raises(InvalidInput) as refused:
        run_create(kind="benchmark", endpoints=[endpoint], project=world.project, parameters=parameters)

    assert refused.value.message == message
    assert refused.value.field_errors == {"templates": [field_error]}
    assert (Run.objects.count(), Call.objects.count()) == (0, 0)


def test_the_open_ended_template_still_takes_a_chat_run(world):
    world, _endpoint = world

    cleaned = Benchmark().clean_parameters(
        {"mode": "chat", "open_ended": True, "statuses": ["approved"]}, project=world.project
    )

    assert cleaned["template_texts"] == {"open_ended": "{{ prompt }}"}
