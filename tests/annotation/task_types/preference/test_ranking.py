"""The models' Bradley-Terry ranking from preference pairs, with bootstrap intervals over prompts."""

import pandas as pd
from crowdkit.aggregation import BradleyTerry

from annotation.task_types.preference.ranking import model_ranking

# (winner, loser): times won each way, spread over four prompts in turn.
WINS = {("gpt", "llama"): (3, 1), ("gpt", "sealion"): (2, 2), ("sealion", "llama"): (3, 1)}


def _pairs(prompts: int = 4) -> list[dict]:
    pairs, n = [], 0
    for (a, b), (a_wins, b_wins) in WINS.items():
        for chosen, rejected, times in ((a, b, a_wins), (b, a, b_wins)):
            for _ in range(times):
                pairs.append({"item_id": n % prompts, "chosen_model": chosen, "rejected_model": rejected})
                n += 1
    return pairs


def test_the_scores_are_crowd_kits_bradley_terry_best_first_with_pairs_and_wins():
    pairs = _pairs()
    frame = pd.DataFrame(
        {
            "worker": 0,
            "left": [p["chosen_model"] for p in pairs],
            "right": [p["rejected_model"] for p in pairs],
            "label": [p["chosen_model"] for p in pairs],
        }
    )
    expected = BradleyTerry(n_iter=100).fit(frame).scores_

    ranking = model_ranking(pairs)

    assert [(r["rank"], r["model"], r["pairs"], r["wins"]) for r in ranking] == [
        (1, "gpt", 8, 5),
        (2, "sealion", 8, 5),
        (3, "llama", 8, 2),
    ]
    assert {r["model"]: r["score"] for r in ranking} == {m: round(float(s), 4) for m, s in expected.items()}
    assert [r["score"] for r in ranking] == [0.4274, 0.4274, 0.1453]
    assert all(r["low"] <= r["score"] <= r["high"] for r in ranking)
    assert ranking == model_ranking(pairs)  # seeded


def test_the_bootstrap_draws_prompts_so_pairs_of_a_single_prompt_give_no_spread():
    ranking = model_ranking(_pairs(prompts=1), resamples=20)

    assert [(r["model"], r["low"], r["score"], r["high"]) for r in ranking] == [
        ("gpt", 0.4274, 0.4274, 0.4274),
        ("sealion", 0.4274, 0.4274, 0.4274),
        ("llama", 0.1453, 0.1453, 0.1453),
    ]


def test_the_intervals_over_four_prompts():
    ranking = model_ranking(_pairs())

    assert [(r["model"], r["low"], r["high"]) for r in ranking] == [
        ("gpt", 0.1413, 0.7619),
        ("sealion", 0.2381, 0.6687),
        ("llama", 0.0, 0.5496),
    ]


def test_a_pair_of_one_models_two_responses_is_left_out_and_no_pairs_rank_nothing():
    same = [{"item_id": 0, "chosen_model": "gpt", "rejected_model": "gpt"}]

    assert model_ranking(_pairs() + same) == model_ranking(_pairs())
    assert model_ranking(same) == []
    assert model_ranking([]) == []


def test_a_draw_that_misses_a_model_is_left_out_of_the_intervals():
    # 13 prompts, "rare" in one of them: seed 0's single draw misses it, so no interval is known.
    pairs = _pairs(prompts=12) + [{"item_id": 99, "chosen_model": "rare", "rejected_model": "llama"}]

    ranking = model_ranking(pairs, resamples=1, seed=0)

    assert [(r["model"], r["score"], r["low"], r["high"]) for r in ranking] == [
        ("rare", 0.4561, None, None),
        ("gpt", 0.2356, None, None),
        ("sealion", 0.2356, None, None),
        ("llama", 0.0727, None, None),
    ]
