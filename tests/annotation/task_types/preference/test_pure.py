"""Pure parts: alpha against the krippendorff package (missing values, three levels), the pair rule's
margin, verdict reading, the seeded order."""

from __future__ import annotations

import json

import krippendorff
import numpy as np
import pytest

from annotation.task_types.preference import agreement
from annotation.task_types.preference.judging import shown_order
from annotation.task_types.preference.pairs import Prompt, derive, response_scores
from evaluation.task_types.preference.exports import scores_json
from evaluation.task_types.preference.judge_prompts import parse_verdict, render

DATA = np.array(
    [
        [1, 2, 3, 3, 2, 1, 4, 1, 2, np.nan, np.nan, np.nan],
        [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, np.nan, 3],
        [np.nan, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, np.nan],
        [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, np.nan],
    ]
)


@pytest.mark.parametrize("level", ["nominal", "ordinal", "interval"])
def test_alpha_equals_the_krippendorff_package_with_missing_values(level):
    triples = [
        (u, c, DATA[c, u]) for c in range(DATA.shape[0]) for u in range(DATA.shape[1]) if not np.isnan(DATA[c, u])
    ]

    got = agreement.alpha(triples, level=level)

    assert got == pytest.approx(krippendorff.alpha(reliability_data=DATA, level_of_measurement=level), abs=1e-12)


def test_alpha_of_nothing_comparable_is_none():
    assert agreement.alpha([("u1", "a", 3)], level="ordinal") is None
    assert agreement.alpha([], level="interval") is None


def _prompt(ratings):
    payload = {
        "prompt": "x",
        "input": "",
        "responses": [{"id": f"r{i}", "model": f"m{i}", "text": f"t{i}"} for i in (1, 2, 3)],
    }
    return Prompt(1, "p1", "math", payload, tuple(ratings))


def test_the_margin_turns_small_differences_into_ties():
    a = {
        "group": "A",
        "ratings": {
            "r1": {"relevance": 5, "fluency": 5},
            "r2": {"relevance": 4, "fluency": 5},
            "r3": {"relevance": 2, "fluency": 2},
        },
        "best": "r1",
    }
    b = {
        "group": "B",
        "ratings": {
            "r1": {"relevance": 5, "fluency": 4},
            "r2": {"relevance": 5, "fluency": 5},
            "r3": {"relevance": 3, "fluency": 2},
        },
        "best": "r2",
    }
    # combined: r1 19, r2 19, r3 9

    one, ties_one = derive(_prompt([a, b]), min_margin=1)
    wide, ties_wide = derive(_prompt([a, b]), min_margin=11)
    picked, ties_picked = derive(_prompt([a, b]), min_margin=1, tie_break="best_picks")

    assert [(p["chosen"], p["rejected"]) for p in one] == [("r1", "r3"), ("r2", "r3")] and ties_one == 1
    assert (wide, ties_wide) == ([], 3)
    assert [(p["chosen"], p["rejected"], p["rule"]) for p in picked] == [("r1", "r3", "score"), ("r2", "r3", "score")]
    assert ties_picked == 1  # one best pick each: still a tie
    assert one[0]["chosen_scores"]["by_group"] == {
        "A": {"relevance": 5.0, "fluency": 5.0},
        "B": {"relevance": 5.0, "fluency": 4.0},
    }


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        ('{"explanation": "lebih baik", "score": "Response 2"}', 2),
        ('Here: {"explanation": "x", "score": "Respon 1"} done', 1),
        ('{"explanation": "Response 1 is short", "score": "Response 2"}', 2),
        ('"score": "Response 1"', 1),
        ("I prefer Response 2.", 2),
        ("Response 1 and Response 2 are both fine.", None),
        ("", None),
    ],
)
def test_verdicts_are_read_from_the_score(text, verdict):
    assert parse_verdict(text) == verdict


def test_the_judge_prompt_has_both_responses_in_the_given_order():
    prompt = render("id", input_text="Soal", response_1="SATU", response_2="DUA")
    assert prompt.index("### RESPON 1\nSATU") < prompt.index("### RESPON 2\nDUA")
    assert "Respon 1: Respon 1 lebih disukai dibandingkan Respon 2." in prompt


def test_the_order_is_seeded_by_project_prompt_and_rater():
    ids = ["r1", "r2", "r3", "r4", "r5"]
    orders = {tuple(shown_order(ids, secret="s", seed=0, item_id=7, judge_id=j)) for j in range(10)}
    assert shown_order(ids, secret="s", seed=0, item_id=7, judge_id=3) == shown_order(
        ids[::-1], secret="s", seed=0, item_id=7, judge_id=3
    )
    assert len(orders) > 5


def test_the_scores_a_pair_keeps_with_several_raters_per_group():
    def rating(group, r1, r2, r3, best):
        scores = {"r1": r1, "r2": r2, "r3": r3}
        return {
            "group": group,
            "ratings": {k: {"relevance": v[0], "fluency": v[1]} for k, v in scores.items()},
            "best": best,
        }

    ratings = [
        rating("A", (5, 4), (2, 2), (3, 3), "r1"),
        rating("A", (4, 4), (2, 3), (3, 3), "r1"),
        rating("A", (4, 5), (1, 2), (3, 4), "r3"),
        rating("B", (5, 5), (3, 3), (3, 3), "r1"),
    ]

    scores = response_scores(_prompt(ratings))

    # r1: group A means 13/3 and 13/3, group B 5 and 5; combined 26/3 + 10 = 18.6667
    assert scores["r1"].scores == {
        "relevance": 4.5,
        "fluency": 4.5,
        "combined": 18.6667,
        "best_picks": 3,
        "by_group": {"A": {"relevance": 4.3333, "fluency": 4.3333}, "B": {"relevance": 5.0, "fluency": 5.0}},
    }
    assert scores["r2"].scores["by_group"] == {
        "A": {"relevance": 1.6667, "fluency": 2.3333},
        "B": {"relevance": 3.0, "fluency": 3.0},
    }
    assert scores["r2"].combined == pytest.approx(4 + 6)
    assert (scores["r3"].best_picks, scores["r3"].scores["combined"]) == (1, 12.3333)  # A: 3 + 10/3, B: 3 + 3


@pytest.mark.parametrize(
    "scores",
    [
        {},
        {"relevance": 4.5, "fluency": 4.0, "combined": 17.0, "best_picks": 2, "by_group": {}},
        {
            "relevance": 4.3333,
            "fluency": 1e-05,
            "combined": 18.6667,
            "best_picks": 3,
            "by_group": {"A": {"relevance": 4.3333, "fluency": 4.3333}, 'B\u00e9"': {"relevance": 5, "fluency": 5.0}},
        },
        {"relevance": 4.5, "fluency": 4.0, "combined": 17.0, "best_picks": True, "by_group": {}},  # bool: json's way
        {
            "relevance": 1.0,
            "fluency": 1.0,
            "combined": 4.0,
            "best_picks": 0,
            "by_group": {"A": {"fluency": 1.0, "relevance": 1.0}},
        },
        {"fluency": 4.0, "relevance": 4.5, "combined": 17.0, "best_picks": 2, "by_group": {}},
    ],
)
def test_the_fast_scores_encoding_equals_json_dumps(scores):
    assert scores_json(scores) == json.dumps(scores, ensure_ascii=False)
