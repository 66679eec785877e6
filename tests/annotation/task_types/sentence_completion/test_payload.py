"""The completion payload: normalizing form, API and release shapes, and the authoring checks."""

import pytest

from annotation.errors import InvalidInput
from annotation.task_types import get_task_type
from annotation.task_types.sentence_completion.payload import check, is_arabic_script, normalize
from tests.annotation.task_types.sentence_completion.data import payload, row

TT = get_task_type("sentence_completion")


def test_a_valid_arabic_item_passes_every_check():
    result = check(normalize(payload(0)))

    assert (result.errors, result.warnings) == ({}, {})


def test_the_release_layout_normalizes_to_the_canonical_payload():
    released = row(k=3, answer="C", country="ksa", other="Yes")

    got = normalize(released)

    assert got == {
        "premise": "يقوم أحمد بتحضير الكبسة يوم الجمعة",
        "completions": ["يتم تناول الكبسة مع الأرز", "يتم تناول الكبسة بالخبز", "يتم تناول الكبسة مع الفواكه"],
        "answer": "C",
        "country": "KSA",
        "region": "Gulf",
        "relevant_to_this_country": True,
        "relevant_to_other_countries": True,
    }


def test_an_arabic_answer_key_is_read_as_the_same_letter():
    assert normalize({**payload(0), "answer": "ج"})["answer"] == "C"


def test_three_distinct_completions_and_a_marked_answer_are_required():
    p = payload(0)
    bad = normalize({**p, "completions": [p["completions"][0], " " + p["completions"][0] + "ً", ""], "answer": ""})

    result = check(bad)

    assert result.errors == {
        "completion_b": ["Completion B repeats completion A."],
        "completion_c": ["Completion C is empty."],
        "answer": ["Mark the culturally right completion."],
    }


def test_premise_and_completions_must_be_in_arabic_script():
    p = payload(0)
    latin = normalize(
        {**p, "premise": "Ahmed prepares foul for breakfast", "completions": ["with rice", *p["completions"][1:]]}
    )

    result = check(latin)

    assert result.errors == {
        "premise": ["Write the premise in Arabic script."],
        "completion_a": ["Write completion A in Arabic script."],
    }
    assert check(latin, script="any").errors == {}
    assert is_arabic_script("يأكل أحمد KFC في الرياض") is True


def test_a_completion_that_repeats_the_premise_is_a_warning_a_justification_overrides():
    p = payload(0)
    repeated = normalize({**p, "completions": [p["premise"] + " مع الأرز", *p["completions"][1:]]})

    result = check(repeated)

    assert result.errors == {}
    assert list(result.warnings) == ["completion_a"]
    assert "repeats the premise" in result.warnings["completion_a"][0]


def test_relevance_questions_and_a_known_country_are_required():
    bad = normalize(
        {**payload(0), "country": "France", "relevant_to_this_country": None, "relevant_to_other_countries": "maybe"}
    )

    result = check(bad)

    assert set(result.errors) == {"country", "relevant_to_this_country", "relevant_to_other_countries"}


def test_the_project_script_setting_is_used_by_check_unit():
    p = normalize({**payload(0), "premise": "Ahmed prepares foul"})

    assert "premise" in TT.check_unit([p], concept=None, unit_data={}, settings={"script": "arabic"}).errors
    assert TT.check_unit([p], concept=None, unit_data={}, settings={"script": "any"}).errors == {}


def test_an_over_long_premise_is_refused_even_for_a_draft():
    with pytest.raises(InvalidInput) as refused:
        normalize({**payload(0), "premise": "ب" * 2001})

    assert "premise" in refused.value.field_errors


def test_the_form_round_trips_the_payload():
    p = normalize(payload(2, answer="A", other=True))
    form_class = TT.form_class()
    form = form_class(data={**TT.form_initial(p)})

    assert form.is_valid(), form.errors
    assert TT.payload_from_form(form.cleaned_data) == p


def test_diff_names_the_changed_fields():
    old = normalize(payload(0))
    new = {**old, "answer": "A", "relevant_to_other_countries": True}

    assert [(c.field, c.old, c.new) for c in TT.diff(old, new)] == [
        ("Answer", "B", "A"),
        ("Relevant to other countries", "No", "Yes"),
    ]
