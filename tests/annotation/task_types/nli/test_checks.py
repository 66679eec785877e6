"""A writer's six hypotheses for one premise: each error and each warning once."""

from annotation.task_types.nli.checks import Issue, check_hypotheses

PREMISE = "Filipina terkenal dengan pertanian padi bukitnya. Sawah itu diperkenalkan oleh suku Batad."
GOOD = [
    ("Suku Batad memperkenalkan sawah di bukit.", "e"),
    ("Filipina punya pertanian padi.", "e"),
    ("Suku Batad tinggal di pantai.", "c"),
    ("Filipina tidak menanam padi.", "c"),
    ("Filipina mengekspor padi ke Jepang.", "n"),
    ("Suku Batad berjumlah ribuan orang.", "n"),
]


def _with(index, text=None, label=None):
    hypotheses = list(GOOD)
    old_text, old_label = hypotheses[index]
    hypotheses[index] = (old_text if text is None else text, old_label if label is None else label)
    return hypotheses


def test_six_good_hypotheses_pass():
    result = check_hypotheses(PREMISE, GOOD)

    assert (result.ok, result.errors, result.warnings) == (True, [], [])


def test_count():
    result = check_hypotheses(PREMISE, GOOD[:5])

    assert result.errors == [Issue(None, "count", "Write 6 hypotheses; there are 5.")]


def test_empty_hypothesis():
    result = check_hypotheses(PREMISE, _with(2, text="  "))

    assert result.errors == [Issue(2, "empty", "Hypothesis 3 is empty.")]


def test_unknown_label():
    result = check_hypotheses(PREMISE, _with(1, label="maybe"))

    assert result.errors == [Issue(1, "label", "Hypothesis 2: choose entailment, neutral or contradiction.")]


def test_two_per_label():
    result = check_hypotheses(PREMISE, _with(5, label="entailment"))

    assert result.errors == [
        Issue(
            None,
            "labels_per_premise",
            "Write 2 hypotheses per label; there are 3 entailment, 1 neutral, 2 contradiction.",
        )
    ]


def test_duplicate_after_normalisation():
    result = check_hypotheses(PREMISE, _with(3, text="  filipina PUNYA pertanian padi  "))

    assert result.errors == [Issue(3, "duplicate", "Hypothesis 4 is the same as hypothesis 2.")]


def test_identical_to_a_premise_sentence():
    result = check_hypotheses(PREMISE, _with(0, text="sawah itu diperkenalkan oleh suku Batad"))

    assert result.errors == [Issue(0, "copies_premise", "Hypothesis 1 is identical to a sentence of the premise.")]


def test_more_than_one_sentence_is_a_warning():
    result = check_hypotheses(PREMISE, _with(4, text="Filipina mengekspor padi. Jepang membelinya."))

    assert (result.ok, result.errors) == (True, [])
    assert result.warnings == [Issue(4, "one_sentence", "Hypothesis 5 looks like more than one sentence.")]


def test_no_shared_content_word_is_a_warning():
    # only function words ("tidak", "di") in common with the premise
    result = check_hypotheses(PREMISE, _with(5, text="Mereka tidak tinggal di Jepang."))

    assert result.ok
    assert result.warnings == [Issue(5, "no_shared_word", "Hypothesis 6 shares no keyword with the premise.")]
