"""One reply scored against one case: the answer the extraction rules find (evaluation/benchmarks/
extraction.py), whether one was found, and whether it is the gold answer. Unparsed is wrong."""

from __future__ import annotations

from typing import Any, NamedTuple


class Score(NamedTuple):
    answer: str
    parsed: bool
    correct: bool
    rule: str


def score_reply(kind: str, reply: str, *, case: Any) -> Score:
    """`kind` is the task type's BenchmarkSpec.kind: "choice" (letters of `case.options`) or "label"."""
    # Imported on use: the kind is registered when Django starts, the rules are needed by workers only.
    from evaluation.benchmarks.extraction import extract_choice, extract_label

    found = extract_choice(reply, list(case.options)) if kind == "choice" else extract_label(reply, list(case.answers))
    if kind == "choice" and not found.parsed and found.rule != "ambiguous":
        # An Arabic reply ("ب", "الإجابة الصحيحة هي ج"): the same rules over its keys in Latin form.
        from evaluation.benchmarks.extraction import arabic_reply_as_latin

        latin = arabic_reply_as_latin(reply)
        if latin != reply:
            found = extract_choice(latin, list(case.options))
    answer = (found.answer or "") if found.parsed else ""
    return Score(
        answer=answer,
        parsed=bool(found.parsed),
        correct=bool(found.parsed) and answer == case.gold,
        rule=found.rule or "",
    )
