"""Reading JSON out of replies: never raises, and linear in the reply's length on hostile text."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from evaluation.replies import json_values
from tests.linear_time import assert_linear

CUT_OFF = "The reply was cut off; the complete objects before the cut were kept."


@given(st.text(alphabet='{}[]",: 1a\n`', max_size=200))
def test_any_reply_gives_values_or_a_problem_never_an_error(reply):
    extracted = json_values(reply)

    assert extracted.values or extracted.problems


@pytest.mark.parametrize("unit", ["{", "[", "[1,", '{"a":', "{ x } "])
def test_a_hostile_reply_of_100k_characters_is_read_in_linear_time(unit):
    # Before: 40,000 `{` took 1.7 s (quadratic), and 20,000 `[` raised RecursionError.
    assert_linear(json_values, lambda length: unit * (length // len(unit)))
    assert json_values(unit * (100_000 // len(unit))).values == []


def test_objects_before_a_too_deeply_nested_value_are_kept():
    extracted = json_values('{"a": 1} ' + "[" * 5000)

    assert (extracted.values, extracted.problems) == ([{"a": 1}], [CUT_OFF])


def test_prose_braces_between_objects_do_not_hide_them():
    extracted = json_values('Here {you} go: {"a": 1} and { "b": 2 }, {}')

    assert extracted.values == [{"a": 1}, {"b": 2}, {}]
