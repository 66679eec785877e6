"""The word-level diff (annotation.word_diff) and its escaping filter, without a database."""

from annotation.templatetags.word_diff import word_diff_filter
from annotation.word_diff import word_diff


def test_a_changed_word_is_a_deletion_then_an_insertion():
    assert word_diff("makan nasi pagi", "makan roti pagi") == [
        ("equal", "makan "),
        ("delete", "nasi"),
        ("insert", "roti"),
        ("equal", " pagi"),
    ]


def test_the_parts_join_back_into_both_texts():
    old, new = "Di Bandung, kapan orang makan?", "Di Bandung kapan orang Sunda biasanya makan?!"
    parts = word_diff(old, new)

    assert "".join(text for op, text in parts if op != "insert") == old
    assert "".join(text for op, text in parts if op != "delete") == new


def test_punctuation_and_other_scripts_are_tokens_of_their_own():
    assert word_diff("متى يأكل الناس؟", "متى يأكل الأطفال؟") == [
        ("equal", "متى يأكل "),
        ("delete", "الناس"),
        ("insert", "الأطفال"),
        ("equal", "؟"),
    ]


def test_equal_and_empty_texts():
    assert word_diff("sama", "sama") == [("equal", "sama")]
    assert word_diff("", "baru") == [("insert", "baru")]
    assert word_diff("lama", "") == [("delete", "lama")]


def test_the_filter_marks_changes_and_escapes_every_piece():
    html = word_diff_filter('<b>a</b> & "x"', "<b>a</b> & <script>alert(1)</script>")

    assert html == (
        "&lt;b&gt;a&lt;/b&gt; &amp; <del>&quot;x&quot;</del><ins>&lt;script&gt;alert(1)&lt;/script&gt;</ins>"
    )
