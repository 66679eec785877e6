"""csqa's benchmark hook: the paper's three zero-shot prompts (Appendix F) and its two gold keys."""

from __future__ import annotations

from annotation.task_types import get_task_type
from annotation.task_types.base import ExportRecord, GoldInfo, ItemRecord, JudgmentRecord
from evaluation.templating import render

CSQA = get_task_type("csqa")
PAYLOAD = {"question": "Apa itu cimol?", "choices": ["kue", "jajanan", "minuman", "sayur", "buah"], "answer": "B"}
FIELDS = {"concept": "cimol", "question": "Q?", **{f"choice_{c}": c.upper() * 2 for c in "abcde"}, "category": ""}


def _record(details, answers=()):
    item = ItemRecord(1, "x-1", "gold", "human", 3, "a1", 5, "cimol", "makanan", {}, 0, 1, PAYLOAD)
    gold = GoldInfo(1, "gold", "", details) if details is not None else None
    judgments = tuple(
        JudgmentRecord(n, 1, 10 + n, f"W{n}", 1, {"answer": answer}, {}) for n, answer in enumerate(answers)
    )
    return ExportRecord(item=item, judgments=judgments, gold=gold, settings={}, seed=0)


def test_the_three_templates_of_appendix_f():
    texts = {t.name: render(t.text, FIELDS) for t in CSQA.benchmark().templates}
    options = "A. AA\nB. BB\nC. CC\nD. DD\nE. EE\nAnswer:"

    assert texts == {
        "mmlu_concept": 'The following are multiple choice questions (with answers) about "cimol".\nQ?\n' + options,
        "question_choices": "Question: Q?\nChoices:\n" + options,
        "helm": 'The following are multiple choice questions (with answers) about "cimol".\nQuestion: Q?\n' + options,
        "open_ended": "Q?",
    }
    assert {t.name: t.source for t in CSQA.benchmark().templates if not t.open_ended} == dict.fromkeys(
        ("mmlu_concept", "question_choices", "helm"), "Putri et al. 2024, Appendix F (Zero-Shot Benchmark Prompts)"
    )
    assert [t.name for t in CSQA.benchmark().templates if t.open_ended] == ["open_ended"]


def test_gold_keys_author_and_majority():
    record = _record({"majority": "C"})

    author = CSQA.benchmark_item(record, gold_key="author")
    majority = CSQA.benchmark_item(record, gold_key="majority")

    assert (author.gold, author.human_answers, author.options) == ("B", ("C",), tuple(PAYLOAD["choices"]))
    assert author.fields["concept"] == "cimol" and author.fields["choice_b"] == "jajanan"
    assert (majority.gold, majority.human_answers) == ("C", ("C",))
    assert CSQA.benchmark_item(_record(None), gold_key="majority") is None
    assert CSQA.benchmark_item(_record({"majority": None}), gold_key="author").human_answers == ()


def test_the_human_answers_are_the_answerers_in_annotator_order():
    record = _record({"majority": "C"}, answers=["C", "B", None, "C", "Z"])

    task = CSQA.benchmark_item(record, gold_key="author")

    # no answer and a letter outside A-E are left out; the recorded majority is not added
    assert task.human_answers == ("C", "B", "C")
