"""The linear-time check itself: it passes a linear reader and fails a quadratic one."""

import pytest

from tests.linear_time import assert_linear


def _linear(text: str) -> int:
    return sum(1 for _ in text)


def _quadratic(text: str) -> int:
    steps = range(0, len(text), 50)
    return sum(1 for _ in steps for _ in steps)


def test_a_linear_reader_passes():
    assert_linear(_linear, lambda length: "{" * length)


def test_a_quadratic_reader_fails():
    with pytest.raises(AssertionError, match="for a tenth"):
        assert_linear(_quadratic, lambda length: "{" * length)
