"""A ranking of the models behind a preference project's responses, from its pairs (pure).

Bradley-Terry (crowd-kit's `BradleyTerry`): each model gets a strength score, the scores summing to 1,
such that a model beats another with probability score / (score + other's score). The 95% interval of
each score is a percentile bootstrap over prompts (prompts drawn with replacement, every pair of a drawn
prompt kept), since pairs of one prompt are not independent of each other. Scores sum to 1 over the
models compared, so a draw that misses a model is on another scale and left out of the intervals; when
every prompt compares every model (a project's usual design) no draw misses one.

Cost, measured with crowd-kit 1.4: one fit takes ~10 ms on 500 pairs and ~0.5 s on 50,000, so a
bootstrap of 200 fits belongs in the background for a large project, not on a page's request path.
crowd-kit's NoisyBradleyTerry (which also fits each rater's reliability) took 86 s on 50,000 pairs: it
is not offered here.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np

RESAMPLES = 200
N_ITER = 100


def _scores(left: Any, right: Any, label: Any, n_models: int) -> Any:
    """Bradley-Terry scores of models 0..n_models-1 (NaN for a model absent from the pairs)."""
    import pandas as pd
    from crowdkit.aggregation import BradleyTerry

    frame = pd.DataFrame({"worker": 0, "left": left, "right": right, "label": label})
    # crowd-kit calls pandas APIs that newer pandas deprecates: silenced, as in aggregation fitting.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", category=DeprecationWarning)
        warnings.simplefilter("ignore", category=FutureWarning)
        fitted = BradleyTerry(n_iter=N_ITER).fit(frame).scores_
    out = np.full(n_models, np.nan)
    out[fitted.index.to_numpy(dtype=np.int64)] = fitted.to_numpy(dtype=float)
    return out


def model_ranking(
    pairs: Iterable[Mapping[str, Any]], *, resamples: int = RESAMPLES, seed: int = 0
) -> list[dict[str, Any]]:
    """Per model, best first: its Bradley-Terry score with a 95% bootstrap interval over prompts, its
    pairs and its wins. `pairs` are the project's preference pairs (item_id, chosen_model,
    rejected_model); a pair between two responses of the same model says nothing and is left out."""
    rows = [
        (p["item_id"], p["chosen_model"], p["rejected_model"])
        for p in pairs
        if p["chosen_model"] != p["rejected_model"]
    ]
    if not rows:
        return []
    models = sorted({m for _, chosen, rejected in rows for m in (chosen, rejected)})
    code = {model: n for n, model in enumerate(models)}
    _, prompt = np.unique([r[0] for r in rows], return_inverse=True)
    winner = np.array([code[r[1]] for r in rows])
    loser = np.array([code[r[2]] for r in rows])
    score = _scores(winner, loser, winner, len(models))
    rng = np.random.default_rng(seed)
    by_prompt = np.split(np.argsort(prompt, kind="stable"), np.cumsum(np.bincount(prompt))[:-1])
    draws = np.full((resamples, len(models)), np.nan)
    for n in range(resamples):
        chosen = rng.integers(0, len(by_prompt), len(by_prompt))
        index = np.concatenate([by_prompt[k] for k in chosen])
        draws[n] = _scores(winner[index], loser[index], winner[index], len(models))
    # A draw that misses a model normalises the others' scores over fewer models (another scale): left out.
    complete = draws[~np.isnan(draws).any(axis=1)]
    if len(complete):
        low, high = np.percentile(complete, 2.5, axis=0), np.percentile(complete, 97.5, axis=0)
    else:
        low = high = np.full(len(models), np.nan)
    compared = np.bincount(np.concatenate([winner, loser]), minlength=len(models))
    wins = np.bincount(winner, minlength=len(models))
    ranking = [
        {
            "model": model,
            "score": round(float(score[m]), 4),
            # None: no draw held every model (a model of few prompts, with few resamples)
            "low": None if np.isnan(low[m]) else round(float(low[m]), 4),
            "high": None if np.isnan(high[m]) else round(float(high[m]), 4),
            "pairs": int(compared[m]),
            "wins": int(wins[m]),
        }
        for m, model in enumerate(models)
    ]
    ranking.sort(key=lambda row: (-row["score"], row["model"]))
    for rank, row in enumerate(ranking, start=1):
        row["rank"] = rank
    return ranking
