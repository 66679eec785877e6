"""A small id-csqa file with the oddities real files have, written here (no data copied from the release)."""

from __future__ import annotations

import copy
import json

CODES = ["W1", "W2", "W3", "W4", "W5", "W6"]


def row(external_id, *, author="W1", answer="A", **changes):
    answerers = [c for c in CODES if c != author]
    base = {
        "id": external_id,
        "category": "culinary",
        "question_concept": "ketupat",
        "question": f"Kapan ketupat biasanya disajikan? ({external_id})",
        "choices": {"label": ["A", "B", "C", "D", "E"], "text": ["Lebaran", "Natal", "Imlek", "Nyepi", "Waisak"]},
        "answer_creator": "A",
        "answer_majority": "A",
        "answers": dict.fromkeys(answerers, answer),
        "answers_uncertainty": dict.fromkeys(answerers, "certain"),
        "question_ambiguity": dict.fromkeys(answerers, "clear"),
        "option_ambiguity": {c: ["clear"] * 5 for c in answerers},
        "reason": dict.fromkeys(answerers, ""),
    }
    base.update(changes)
    return base


def messy_records() -> list:
    rows = [row("ok-1")]  # 1
    odd = row("odd-vocab")  # 2
    odd["answers_uncertainty"].update({"W2": "maybe", "W3": "Uncertain"})
    odd["question_ambiguity"].update({"W4": "sort of", "W5": ""})
    rows.append(odd)
    empty = row("empty-flags")  # 3
    empty["option_ambiguity"]["W2"] = []
    del empty["option_ambiguity"]["W3"]
    empty["option_ambiguity"]["W4"] = ["clear"] * 4
    empty["option_ambiguity"]["W5"] = ["clear", "kinda", "clear", "clear", "clear"]
    rows.append(empty)
    missing = row("missing-answer")  # 4: W3 answered nothing but left flags and a reason
    del missing["answers"]["W3"]
    missing["reason"]["W3"] = "lupa menjawab"
    rows.append(missing)
    two = row("two-authors")  # 5: W1 and W2 both absent
    for key in ("answers", "answers_uncertainty", "question_ambiguity", "option_ambiguity", "reason"):
        del two[key]["W2"]
    rows.append(two)
    labels = row("bad-labels", answer_creator="Z")  # 6
    labels["answers"].update({"W2": "F", "W3": "c"})
    rows.append(labels)
    dup_labels = row("bad-choices")  # 7
    dup_labels["choices"] = {"label": ["A", "B", "C", "D", "D"], "text": ["a", "b", "c", "d", "e"]}
    rows.append(dup_labels)
    no_id = row("")  # 8
    rows.append(no_id)
    rows.append(row("ok-1"))  # 9: duplicate id
    rows.append("oops")  # 10
    rows.append(row("no-question", question="  "))  # 11
    lower = row("lower-labels")  # 12
    lower["choices"] = {"label": ["a", "b", "c", "d", "e"], "text": ["Lebaran", "Natal", "Imlek", "Nyepi", "Waisak"]}
    rows.append(lower)
    return copy.deepcopy(rows)


def messy_bytes() -> bytes:
    return json.dumps(messy_records(), ensure_ascii=False).encode()


EXPECTED_ISSUE_ROWS = {
    "author_unknown": [5],
    "bad_answer": [6],
    "bad_answer_creator": [6],
    "bad_choices": [7],
    "bad_option_ambiguity": [3],
    "duplicate_id": [9],
    "empty_option_ambiguity": [3],
    "missing_answer": [4],
    "missing_id": [8],
    "missing_question": [11],
    "normalised_value": [2, 6, 12],
    "not_an_object": [10],
    "unknown_option_ambiguity": [3],
    "unknown_question_ambiguity": [2],
    "unknown_uncertainty": [2],
}
EXPECTED_ISSUE_COUNTS = {
    "author_unknown": 1,
    "bad_answer": 1,
    "bad_answer_creator": 1,
    "bad_choices": 1,
    "bad_option_ambiguity": 1,
    "duplicate_id": 1,
    "empty_option_ambiguity": 2,
    "missing_answer": 1,
    "missing_id": 1,
    "missing_question": 1,
    "normalised_value": 3,
    "not_an_object": 1,
    "unknown_option_ambiguity": 1,
    "unknown_question_ambiguity": 2,
    "unknown_uncertainty": 1,
}
