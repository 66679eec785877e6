"""The rating's anonymity as pure functions: the shown order is keyed by a server secret, raters speak and
are answered in shown positions only, and what a writer is shown of a prompt names no model or id."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from annotation.errors import InvalidInput
from annotation.task_types.base import JudgmentInput
from annotation.task_types.preference.judging import (
    anonymous_payload,
    complete_judgment,
    normalize_judgment,
    own_judgment,
    shown_order,
)
from annotation.task_types.preference.payload import MAX_RESPONSES

IDS = ["r1", "r2", "r3", "r4", "r5"]
PAYLOAD = {
    "prompt": "Jelaskan batik.",
    "input": "",
    "responses": [
        {"id": rid, "model": f"model-{rid}", "text": f"Jawaban {rid[1:]}", "source": "run", "run_id": 9, "call_id": n}
        for n, rid in enumerate(IDS, 1)
    ],
}
SCORES = [{"relevance": n, "fluency": 6 - n} for n in range(1, 6)]


def test_the_order_depends_on_the_secret_not_only_on_what_the_project_api_shows():
    seed, judge = 0, 42
    with_a = [shown_order(IDS, secret="a", seed=seed, item_id=item, judge_id=judge) for item in range(1, 21)]
    with_b = [shown_order(IDS, secret="b", seed=seed, item_id=item, judge_id=judge) for item in range(1, 21)]
    # What anyone could compute from plan_seed, the item id and their own id before the secret keyed it.
    predicted = []
    for item in range(1, 21):
        order = list(IDS)
        random.Random(f"{seed}:{item}:{judge}").shuffle(order)
        predicted.append(order)

    assert with_a == [shown_order(IDS, secret="a", seed=seed, item_id=item, judge_id=judge) for item in range(1, 21)]
    assert with_a != with_b
    assert with_a != predicted
    assert all(sorted(order) == IDS for order in with_a)


def test_ratings_by_position_as_a_list_or_an_object_read_alike():
    as_list = normalize_judgment({"ratings": SCORES, "best": 2, "comment": " ok "})
    as_object = normalize_judgment({"ratings": {str(n): s for n, s in enumerate(SCORES, 1)}, "best": "2"})

    assert as_list == JudgmentInput(value={"ratings": SCORES, "best": 2}, flags={}, comment="ok")
    assert as_object.value == as_list.value


def test_ratings_keyed_by_response_id_are_refused():
    with pytest.raises(InvalidInput) as refused:
        normalize_judgment({"ratings": dict(zip(IDS, SCORES, strict=True)), "best": "r2"})

    assert refused.value.message == "The rating can't be saved yet."
    assert refused.value.field_errors == {
        "ratings": ["Rate the responses by the positions you are shown (1 to 5), never by response id."],
        "best": ["Pick the best response by its position."],
    }


@pytest.mark.parametrize(
    "data",
    [
        {"ratings": {"1": SCORES[0], "2": SCORES[1], "7": SCORES[2]}, "best": 1},  # a gap: position 7 of 3
        {"ratings": {"0": SCORES[0], "1": SCORES[1]}, "best": 1},  # positions start at 1
        {"ratings": SCORES, "best": 6},
        {"ratings": SCORES, "best": 0},
        {"ratings": SCORES * 5, "best": 1},  # more than MAX_RESPONSES
    ],
    ids=["gap", "zero", "best-too-high", "best-zero", "too-many"],
)
def test_positions_out_of_range_are_refused(data):
    with pytest.raises(InvalidInput) as refused:
        normalize_judgment(data)

    assert refused.value.message == "The rating can't be saved yet."


def test_a_rating_by_position_is_stored_by_response_id_and_shown_back_by_position():
    clean = normalize_judgment({"ratings": SCORES, "best": 4})
    order = shown_order(IDS, secret="k", seed=3, item_id=7, judge_id=5)

    stored = complete_judgment(clean, secret="k", judge_id=5, judge_group="B", seed=3, item_id=7, payload=PAYLOAD)
    shown = own_judgment(stored, secret="k", judge_id=5, seed=3, item_id=7, payload=PAYLOAD)

    assert stored.value == {
        "ratings": {rid: SCORES[n] for n, rid in enumerate(order)},
        "best": order[3],
        "order": order,
        "group": "B",
    }
    assert shown == JudgmentInput(value={"ratings": SCORES, "best": 4}, flags={}, comment="")
    assert not any(rid in json.dumps(shown.value) for rid in IDS)


def test_the_rating_is_shown_in_the_order_of_today_after_the_secret_changed():
    stored = complete_judgment(
        normalize_judgment({"ratings": SCORES, "best": 1}),
        secret="old",
        judge_id=5,
        judge_group="A",
        seed=0,
        item_id=7,
        payload=PAYLOAD,
    )
    now = shown_order(IDS, secret="new", seed=0, item_id=7, judge_id=5)

    shown = own_judgment(stored, secret="new", judge_id=5, seed=0, item_id=7, payload=PAYLOAD)

    assert shown.value["ratings"] == [stored.value["ratings"][rid] for rid in now]
    assert shown.value["best"] == now.index(stored.value["best"]) + 1


def test_a_writer_sees_the_responses_in_their_own_order_without_ids_models_or_runs():
    order = shown_order(IDS, secret="k", seed=0, item_id=7, judge_id=5)

    shown = anonymous_payload(PAYLOAD, secret="k", seed=0, item_id=7, viewer_id=5)

    assert shown == {
        "prompt": "Jelaskan batik.",
        "input": "",
        "responses": [{"position": n, "text": f"Jawaban {rid[1:]}"} for n, rid in enumerate(order, 1)],
    }


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 30) | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=4), inner, max_size=6),
    max_leaves=40,
)
ROW = st.fixed_dictionaries({"relevance": st.integers(0, 6), "fluency": st.integers(0, 6)})


@given(
    ratings=JSON | st.lists(ROW, max_size=MAX_RESPONSES + 2) | st.dictionaries(st.text(max_size=3), ROW, max_size=6),
    best=JSON,
)
def test_any_posted_rating_is_read_by_position_or_refused(ratings, best):
    try:
        clean = normalize_judgment({"ratings": ratings, "best": best})
    except InvalidInput as refused:
        assert refused.field_errors
        return
    n = len(clean.value["ratings"])
    assert 1 <= n <= MAX_RESPONSES
    assert 1 <= clean.value["best"] <= n
    assert all(set(row) == {"relevance", "fluency"} for row in clean.value["ratings"])
