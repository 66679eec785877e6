"""A prompt variant's payload and checks (pure): assembly, counts, distinct texts, the best among the
relevant, the KALAHI separator; the author form's best row; prompt parts read back from a file."""

import pytest

from annotation.errors import InvalidInput
from annotation.task_types.cultural_prompt.examples import PAYLOAD
from annotation.task_types.cultural_prompt.forms import payload_data
from annotation.task_types.cultural_prompt.payload import assemble, check, normalize, split_prompt


def test_the_prompt_is_assembled_from_its_parts():
    payload = normalize({**PAYLOAD, "situation": "  "})
    assert payload["prompt"] == f"{PAYLOAD['user']}\n{PAYLOAD['context']}\n{PAYLOAD['instruction']}"
    assert check(payload).ok


@pytest.mark.parametrize(
    ("change", "field", "message"),
    [
        ({"relevant": PAYLOAD["relevant"][:2]}, "relevant", "Write 3 to 5 relevant responses (there are 2)."),
        (
            {"irrelevant": [*PAYLOAD["irrelevant"], "a", "b", "c"]},
            "irrelevant",
            "Write 3 to 5 irrelevant responses (there are 6).",
        ),
        (
            {"irrelevant": [PAYLOAD["relevant"][1].upper(), *PAYLOAD["irrelevant"][1:]]},
            "irrelevant",
            "Irrelevant response 1 repeats relevant response 2: every response must be different.",
        ),
        ({"best": 3}, "best", "The best response must be one of the relevant responses."),
        ({"best": None}, "best", "Mark one relevant response as the best."),
        (
            {"relevant": ["a; b", *PAYLOAD["relevant"][1:]]},
            "relevant",
            "Relevant response 1: remove the “;” (the KALAHI file separates responses with it).",
        ),
        ({"instruction": ""}, "instruction", "Write the instruction."),
        (
            {"prompt": "Something else"},
            "prompt",
            "The prompt must be its parts, one per line: leave it out and it is assembled.",
        ),
    ],
)
def test_checks_refuse_with_a_clear_error(change, field, message):
    assert check(normalize({**PAYLOAD, **change})).errors[field] == [message]


def test_normalize_refuses_what_cannot_be_stored():
    with pytest.raises(InvalidInput) as refused:
        normalize({**PAYLOAD, "relevant": {"a": 1}, "best": "first"})
    assert set(refused.value.field_errors) == {"relevant", "best"}


def test_the_best_row_counts_among_written_rows():
    cleaned = {"relevant_1": "A", "relevant_2": "", "relevant_3": "C", "best": "3", "irrelevant_1": "X"}
    data = payload_data(cleaned)
    assert (data["relevant"], data["best"], data["irrelevant"]) == (["A", "C"], 1, ["X"])


def test_parts_read_back_from_a_file_prompt():
    base = "User.\nContext one.\nWhat to do?"
    assert split_prompt(base, variant=False) == {
        "user": "User.",
        "context": "Context one.",
        "situation": "",
        "instruction": "What to do?",
    }
    variant = "User.\nContext one.\n\nPoor.\nWhat to do?"
    parts = split_prompt(variant, variant=True)
    assert (parts["context"], parts["situation"]) == ("Context one.\n", "Poor.")
    assert assemble(parts) == variant
    assert split_prompt("Context.\nWhy?", variant=False) == {
        "user": "",
        "context": "Context.",
        "situation": "",
        "instruction": "Why?",
    }
