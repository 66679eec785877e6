"""Label spellings and the inference tags."""

import pytest

from annotation.task_types.nli.labels import (
    LABELS,
    PHENOMENA,
    UnknownLabel,
    UnknownPhenomenon,
    label_code,
    normalize_label,
    normalize_phenomenon,
)


@pytest.mark.parametrize(
    ("value", "label"),
    [
        ("e", "entailment"),
        ("N", "neutral"),
        (" c ", "contradiction"),
        ("Entailment", "entailment"),
        ("CONTRADICTION", "contradiction"),
        ("-", None),
        ("", None),
        (None, None),
    ],
)
def test_known_spellings(value, label):
    assert normalize_label(value) == label


@pytest.mark.parametrize("value", ["0", 0, "entails", "hidden", "x", True])
def test_odd_values_are_refused_not_guessed(value):
    with pytest.raises(UnknownLabel) as error:
        normalize_label(value)

    assert error.value.value == value


def test_codes():
    assert [label_code(label) for label in LABELS] == ["e", "n", "c"]


def test_fifteen_tags_from_table_13():
    assert list(PHENOMENA) == [
        "MORPH", "STRUCT", "LSUB", "NEG", "COORD", "QUANT", "NUM", "COMP",
        "LEXSEM", "IDIOM", "COREF", "SPAT", "TEMP", "CS", "WORLD",
    ]  # fmt: skip
    assert all(p.name and p.help for p in PHENOMENA.values())
    assert normalize_phenomenon(" semlex ") == "LEXSEM"  # the diagnostic file's spelling
    with pytest.raises(UnknownPhenomenon):
        normalize_phenomenon("SARCASM")
