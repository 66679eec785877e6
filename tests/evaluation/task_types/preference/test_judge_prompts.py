"""The judge's verdict is read in linear time whatever the reply holds."""

from __future__ import annotations

import pytest

from evaluation.task_types.preference.judge_prompts import parse_verdict
from tests.linear_time import assert_linear


@pytest.mark.parametrize(
    ("reply", "verdict"),
    [
        ('Penjelasan {bukan json} lalu {"explanation": "x", "score": "Respon 2"}', 2),
        ('{"score": 1} {"score": 2}', 1),
        ('{"score": {"nested": 1}}', None),
        ("Respon 1 lebih baik.", 1),
    ],
)
def test_the_first_object_with_a_score_decides(reply, verdict):
    assert parse_verdict(reply) == verdict


@pytest.mark.parametrize("unit", ["{", '{"a":[', "{{}"])
def test_a_hostile_reply_of_100k_characters_is_read_in_linear_time(unit):
    # Before: `\{.*?\}` rescanned from every `{`: 20,000 of them took 3.5 s.
    assert_linear(parse_verdict, lambda length: unit * (length // len(unit)) + "} Respon 2")
    assert parse_verdict(unit * (100_000 // len(unit)) + "} Respon 2") == 2
