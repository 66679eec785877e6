"""The CSV neutraliser: every form of a formula start gets a leading quote, nothing else changes."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from qc.csv_cells import neutralise_csv_cell


@pytest.mark.parametrize(
    "value",
    [
        "=SUM(A1)",
        "+62 812",
        "-2+3",
        "@SUM(1)",
        '\uff1dHYPERLINK("http://x")',  # fullwidth ＝
        "\uff0b1",  # fullwidth ＋
        "\uff0d1",  # fullwidth －
        "\uff20SUM(1)",  # fullwidth ＠
        " =1+2",
        "\t=1+2",
        "\r=1+2",
        "\n=1+2",
        "\u3000\uff1d1+2",  # ideographic space, then ＝
        "\u00a0@A1",  # no-break space
        "\tTab?",
        "\rCR?",
    ],
)
def test_a_formula_start_in_any_form_is_quoted(value):
    assert neutralise_csv_cell(value) == "'" + value


@pytest.mark.parametrize("value", ["", "   ", "plain", "a=b", "1+1", "Naon hartina?", "(=)", "'=already"])
def test_other_cells_are_unchanged(value):
    assert neutralise_csv_cell(value) == value


@given(st.text(alphabet=" \t\r\n\u3000=+-@\uff1d\uff0b\uff0d\uff20ab'", max_size=12))
def test_no_cell_comes_out_starting_like_a_formula_and_text_is_only_ever_prefixed(value):
    out = neutralise_csv_cell(value)

    assert out in (value, "'" + value)
    assert not out.startswith(("\t", "\r"))
    assert out.lstrip()[:1] not in set("=+-@\uff1d\uff0b\uff0d\uff20")
