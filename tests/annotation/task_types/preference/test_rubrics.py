"""The scales' anchor words: in the interface language, and the very heads of the rubric rows the paper
wrote (English and Indonesian), so a scale never says something its rubric does not."""

from __future__ import annotations

import pytest
from django.utils import translation

from annotation.task_types.preference.rubrics import CATEGORIES, CRITERIA, anchors_for, rubric


def _heads(criterion: str, category: str, language: str) -> list[str]:
    return [text.split(":", 1)[0].casefold() for text in rubric(criterion, category, language)]


@pytest.mark.parametrize("language", ["en", "id"])
@pytest.mark.parametrize("category", [*CATEGORIES, "a category of the project's own"])
def test_the_anchor_words_are_the_heads_of_the_rubric_rows_in_the_interface_language(category, language):
    with translation.override(language):
        anchors = anchors_for(category)

    assert list(anchors) == list(CRITERIA)
    for criterion in CRITERIA:
        assert [word.casefold() for word in anchors[criterion]] == _heads(criterion, category, language)


def test_arabic_anchor_words_come_from_the_catalogue():
    with translation.override("ar"):
        math, coding = anchors_for("math"), anchors_for(" Coding ")

    assert math == {
        "relevance": ["غير ذي صلة", "ضعيف الصلة", "ذو صلة جزئية", "ذو صلة في معظمه", "ذو صلة عالية"],
        "fluency": ["ضعيف جدًا", "ضعيف", "مقبول", "جيد", "ممتاز"],
    }
    assert coding["relevance"] == [
        "غير صحيح",
        "صحيح بدرجة ضعيفة",
        "صحيح بخوارزمية معيبة",
        "صحيح وقابل للتشغيل",
        "صحيح ومثالي",
    ]
