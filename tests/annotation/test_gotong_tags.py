"""The template filters that put value codes and agreement levels into the page's language."""

from django.utils import translation

from annotation.task_types import get_task_type
from annotation.templatetags.gotong import agreement_level, value_label


def test_value_label_uses_the_task_types_words_and_keeps_unlisted_values():
    labels = get_task_type("nli").value_labels

    with translation.override("id"):
        assert [value_label(code, labels) for code in ("test_expert", "neutral", "other", 3, None)] == [
            "uji (pakar)",
            "netral",
            "other",
            3,
            None,
        ]
    assert value_label("entailment", get_task_type("csqa").value_labels) == "entailment"


def test_agreement_level_names_krippendorffs_levels_and_keeps_an_unknown_code():
    with translation.override("ar"):
        assert [agreement_level(code) for code in ("nominal", "ordinal", "interval", "ratio")] == [
            "اسمي",
            "ترتيبي",
            "فتري",
            "ratio",
        ]
