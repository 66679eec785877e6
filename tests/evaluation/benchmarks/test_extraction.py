"""Answer extraction: a table of reply shapes seen from chat and completion models, each with the exact
(answer, parsed, rule) expected. Pure functions: no database."""

import re
import time

import pytest
from hypothesis import given
from hypothesis import strategies as st

from evaluation.benchmarks.extraction import (
    _LONE,
    PAPER_ANSWER_IS,
    PAPER_OPTION_LINE,
    Extraction,
    extract_choice,
    extract_label,
    fold,
)

CHOICES = [
    "Tidak berbicara saat makan",
    "Menghabiskan makanan",
    "Makan menggunakan tangan kanan",
    "Makan sambil duduk",
    "Tidak mengecap saat makan",
]

CHOICE_TABLE = [
    # lone letter
    ("C", "C", True, "lone_letter"),
    ("C.", "C", True, "lone_letter"),
    ("(C)", "C", True, "lone_letter"),
    ("C)", "C", True, "lone_letter"),
    ("**C**", "C", True, "lone_letter"),
    ("c", "C", True, "lone_letter"),
    ("  d.\n", "D", True, "lone_letter"),
    ("A atau C", None, False, "ambiguous"),
    ("B or D", None, False, "ambiguous"),
    ("F", None, False, "out_of_range"),
    # the paper's first expression
    ("The correct answer is C.", "C", True, "paper_answer_is"),
    ("The answer is E\n", "E", True, "answer_marker"),  # the paper's "." does not match a line end
    (
        "Hmm, let me think about Indonesian table manners. Most people eat with the right hand.\n\n"
        "The correct answer is C.",
        "C",
        True,
        "paper_answer_is",
    ),
    ("The answer is C. No wait, the answer is D.", None, False, "ambiguous"),
    # answer phrases: English, Indonesian, Sundanese
    ("Answer: C", "C", True, "answer_marker"),
    ("the correct answer is c.", "C", True, "answer_marker"),
    ("Jawaban: C", "C", True, "answer_marker"),
    ("Jawaban: C. Makan menggunakan tangan kanan", "C", True, "answer_marker"),
    ("Jawabannya adalah C", "C", True, "answer_marker"),
    ("Jawaban yang benar adalah (C) Makan menggunakan tangan kanan.", "C", True, "answer_marker"),
    ("jawaban: b", "B", True, "answer_marker"),
    ("Jawaban: **D**", "D", True, "answer_marker"),
    ("Pilihan yang tepat: B", "B", True, "answer_marker"),
    ("Jawabanana C", "C", True, "answer_marker"),
    ("Jawaban nu leres nyaéta C.", "C", True, "answer_marker"),
    ("Walonanana: C", "C", True, "answer_marker"),
    ("Jawabanna nyaéta C, sabab urang Sunda dahar ku leungeun katuhu.", "C", True, "answer_marker"),
    ("Option A is wrong. The best option is C.", "C", True, "answer_marker"),
    (
        "Berikut analisis setiap pilihan:\n- Tidak berbicara saat makan: umum\n"
        "- Makan menggunakan tangan kanan: paling utama\n\nJawaban: C",
        "C",
        True,
        "answer_marker",
    ),
    ("Jawaban: A atau C", None, False, "ambiguous"),
    ("Answer: A\nAnswer: C", None, False, "ambiguous"),
    ("Jawaban: F.", None, False, "out_of_range"),
    # a letter at the start of a line
    ("C. Makan menggunakan tangan kanan", "C", True, "line_start"),
    ("C) Makan menggunakan tangan kanan", "C", True, "line_start"),
    ("(C) Makan menggunakan tangan kanan", "C", True, "line_start"),
    ("C - Makan menggunakan tangan kanan", "C", True, "line_start"),
    ("C\n\nPenjelasan: Dalam budaya Indonesia, makan dengan tangan kanan adalah adab utama.", "C", True, "line_start"),
    ("C. Makan menggunakan tangan kanan\n\nPilihan A salah karena orang boleh berbicara.", "C", True, "line_start"),
    (
        "C. Makan menggunakan tangan kanan.\nA. Tidak berbicara saat makan: kurang tepat.\nB. Bukan yang utama.",
        "C",
        True,
        "line_start",
    ),
    (
        "Mari kita pikirkan.\nOrang Indonesia makan dengan tangan kanan.\n- D. Makan sambil duduk",
        "D",
        True,
        "line_start",
    ),
    (
        "A. Tidak berbicara saat makan\nB. Menghabiskan makanan\nC. Makan menggunakan tangan kanan",
        None,
        False,
        "ambiguous",
    ),
    # the paper's second expression
    ("Saya pilih C. Makan menggunakan tangan kanan karena sopan.", "C", True, "paper_option_line"),
    (
        "Menurut saya, **C. Makan menggunakan tangan kanan** adalah adab utama.",
        "C",
        True,
        "paper_option_line",
    ),
    ("Vitamin C. Rice is not relevant\n", "C", True, "paper_option_line"),  # the expression's breadth, kept
    # markdown bold
    ("Pilihan terbaik adalah **C**.", "C", True, "bold"),
    ("I would go with **(B)** here", "B", True, "bold"),
    # option text
    ("makan menggunakan  tangan kanan", "C", True, "option_text"),
    ("Jawaban: Makan menggunakan tangan kanan.", "C", True, "option_text"),
    ("MAKAN SAMBIL DUDUK", "D", True, "option_text"),
    # unparsed
    ("", None, False, "empty"),
    ("   \n ", None, False, "empty"),
    ("I'm sorry, but I cannot answer this question.", None, False, "refusal"),
    ("Maaf, saya tidak bisa menjawab pertanyaan ini.", None, False, "refusal"),
    ("Punten, abdi teu tiasa ngajawab.", None, False, "refusal"),
    ("The answer is Bakso.", None, False, "no_match"),
    ("The answer is a bit unclear, maybe C or D.", None, False, "no_match"),
    ("Answer: I think it depends on the region.", None, False, "no_match"),
    ("jawaban A kurang tepat karena orang juga berbicara saat makan", None, False, "no_match"),
    ("Makan menggunakan tangan kanan dan sambil duduk", None, False, "no_match"),
]


@pytest.mark.parametrize(("reply", "answer", "parsed", "rule"), CHOICE_TABLE)
def test_extract_choice_table(reply, answer, parsed, rule):
    assert extract_choice(reply, CHOICES) == Extraction(answer, parsed, rule)


def test_table_is_large_and_covers_every_rule():
    assert len(CHOICE_TABLE) >= 30
    rules = {row[3] for row in CHOICE_TABLE}
    assert rules == {
        "lone_letter",
        "paper_answer_is",
        "answer_marker",
        "line_start",
        "paper_option_line",
        "bold",
        "option_text",
        "ambiguous",
        "out_of_range",
        "empty",
        "refusal",
        "no_match",
    }


def test_paper_expressions_are_verbatim():
    assert PAPER_ANSWER_IS.pattern == r"The (correct )?answer is ([A-G])."
    assert PAPER_OPTION_LINE.pattern == r"\b([A-G]\..+?)\n"


def test_letters_beyond_the_choices_are_out_of_range():
    four = CHOICES[:4]

    assert extract_choice("E", four) == Extraction(None, False, "out_of_range")
    assert extract_choice("Jawaban: E.", four) == Extraction(None, False, "out_of_range")
    assert extract_choice("D", four) == Extraction("D", True, "lone_letter")


def test_other_letters_label_the_choices():
    # Only letters are read: digits as option labels are not supported.
    assert extract_choice("Answer: 2", ["x", "y", "z"], letters="123") == Extraction(None, False, "no_match")
    assert extract_choice("(B)", ["x", "y", "z"], letters="abc") == Extraction("b", True, "lone_letter")
    # A lone letter is read as a letter before any option text: "z" is not one of a, b, c.
    assert extract_choice("z", ["x", "y", "z"], letters="abc") == Extraction(None, False, "out_of_range")
    assert extract_choice("Jawaban: jagung", ["Nasi", "Roti", "Jagung"], letters="abc") == Extraction(
        "c", True, "option_text"
    )


def test_option_text_with_the_same_text_twice_is_ambiguous():
    assert extract_choice("Nasi", ["Nasi", "Roti", "nasi "]) == Extraction(None, False, "ambiguous")


def test_fold_ignores_case_width_spacing_and_wrapping():
    assert fold("  **Makan   Menggunakan\tTangan Kanan.**  ") == "makan menggunakan tangan kanan"
    assert fold("ＡＢＣ") == "abc"


LABELS = ["entailment", "neutral", "contradiction"]
# In the test only: the core module names no task type, the task type passes its aliases.
ALIASES = {
    "entailment": ["keterkaitan", "implikasi", "e"],
    "neutral": ["netral", "n"],
    "contradiction": ["kontradiksi", "c"],
}

LABEL_TABLE = [
    ("Entailment", "entailment", True, "lone_label"),
    ("netral.", "neutral", True, "lone_label"),
    ("**Kontradiksi**", "contradiction", True, "lone_label"),
    ("e", "entailment", True, "lone_label"),
    ("Label: kontradiksi", "contradiction", True, "label_marker"),
    ("Jawaban: n", "neutral", True, "label_marker"),
    ("Jawabannya adalah netral karena premis tidak menyebut waktu.", "neutral", True, "label_marker"),
    ("Jawabanana keterkaitan", "entailment", True, "label_marker"),
    ("Answer: entailment\nAnswer: neutral", None, False, "ambiguous"),
    ("The hypothesis is a **contradiction** of the premise, not entailment.", "contradiction", True, "bold"),
    ("Hubungan keduanya adalah kontradiksi.", "contradiction", True, "label_word"),
    ("I think this is entailment because the premise says so.", "entailment", True, "label_word"),
    ("This is neither entailment nor contradiction", None, False, "ambiguous"),
    ("c is my guess", None, False, "no_match"),  # one-letter codes are not free words
    ("", None, False, "empty"),
    ("Maaf, saya tidak tahu.", None, False, "refusal"),
    ("dunno", None, False, "no_match"),
]


@pytest.mark.parametrize(("reply", "answer", "parsed", "rule"), LABEL_TABLE)
def test_extract_label_table(reply, answer, parsed, rule):
    assert extract_label(reply, LABELS, ALIASES) == Extraction(answer, parsed, rule)


def test_labels_without_aliases():
    assert extract_label("NEUTRAL", LABELS) == Extraction("neutral", True, "lone_label")
    assert extract_label("netral", LABELS) == Extraction(None, False, "no_match")


def test_an_alias_for_an_unknown_label_is_refused():
    with pytest.raises(ValueError, match="alias given for 'agree', which is not one of the labels"):
        extract_label("setuju", LABELS, {"agree": ["setuju"]})


@pytest.mark.parametrize(
    "reply",
    [
        "A" + " " * 100_000 + "x",  # the lone-letter rule backtracked: 20,000 spaces took 9 s
        "A" + "\t" * 100_000 + " or",
        " " * 100_000 + "B" + " " * 100_000 + ".",
        "**A." * 25_000,
        "A." * 50_000,
    ],
)
def test_a_hostile_reply_is_read_in_linear_time(reply):
    started = time.perf_counter()
    extract_choice(reply, CHOICES)
    extract_label(reply, ["entailment", "neutral", "contradiction"])
    took = time.perf_counter() - started

    assert took < 2.0  # linear: about 0.3 s here; the backtracking pattern took 9 s for a fifth of this


@pytest.mark.parametrize(
    ("reply", "answer"),
    [(" \t*(B)  .", "B"), ('"c" ', "C"), ("`D`.", "D"), ("A" + " " * 50 + "x", None), ("( E )", "E")],
)
def test_the_lone_letter_rule_reads_what_it_read_before(reply, answer):
    assert extract_choice(reply, CHOICES).answer == answer


# The lone-letter pattern before its runs were made possessive: the reference it must agree with.
_BACKTRACKING_LONE = re.compile(r"^[\s\*_\"'“”`]*\(?\s*([A-Za-z])\s*\)?[\.:]?[\s\*_\"'“”`]*\.?$")


@given(st.text(alphabet=" \t\n*_\"'“”`().:aBx", max_size=30))
def test_the_possessive_lone_letter_pattern_matches_what_the_backtracking_one_matched(reply):
    old, new = _BACKTRACKING_LONE.match(reply), _LONE.match(reply)

    assert (old and old.group(1)) == (new and new.group(1))
