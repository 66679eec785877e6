"""Fitting an aggregation model with crowd-kit, and one item's posterior from a stored fit (pure).

Judgments are integer-coded (item, annotator and label indexes) before crowd-kit sees them: its models
group by these columns, and integers group several times faster than strings (measured on 500,000
judgments: Dawid-Skene ~2 s with integer codes).
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

DAWID_SKENE, GLAD, MACE = "dawid_skene", "glad", "mace"
MODELS = (DAWID_SKENE, GLAD, MACE)
# The hyperparameters each model is fitted with (stored with the fit, named on the data card). EM stops
# when the bound improves by less than `tol`: on 500,000 generated judgments Dawid-Skene converges in
# 4 iterations, so `n_iter` only bounds a pathological project.
HYPERPARAMETERS: dict[str, dict[str, Any]] = {
    DAWID_SKENE: {"n_iter": 100, "tol": 1e-5},
    GLAD: {"n_iter": 50, "tol": 1e-5},
    MACE: {"n_iter": 50, "n_restarts": 3, "random_state": 0},
}
# The floor crowd-kit's Dawid-Skene puts under every probability before taking logs.
EPS = 1e-10
Z95 = 1.959963984540054


@dataclass(frozen=True)
class Coded:
    """Judgments as integer codes: judgment n says annotator `annotators[worker[n]]` gave item
    `items[task[n]]` the label `labels[label[n]]`. Items, annotators and labels are sorted."""

    items: tuple[int, ...]
    annotators: tuple[int, ...]
    labels: tuple[str, ...]
    task: Any  # np.ndarray int64
    worker: Any
    label: Any

    @property
    def size(self) -> int:
        return len(self.task)


def encode(judgments: Iterable[tuple[int, int, str]]) -> Coded:
    """(item id, annotator id, label) triples -> integer codes."""
    rows = list(judgments)
    if not rows:
        empty = np.zeros(0, dtype=np.int64)
        return Coded((), (), (), empty, empty, empty)
    item_ids = np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows))
    annotator_ids = np.fromiter((r[1] for r in rows), dtype=np.int64, count=len(rows))
    labels = sorted({r[2] for r in rows})
    label_code = {label: n for n, label in enumerate(labels)}
    codes = np.fromiter((label_code[r[2]] for r in rows), dtype=np.int64, count=len(rows))
    items, task = np.unique(item_ids, return_inverse=True)
    annotators, worker = np.unique(annotator_ids, return_inverse=True)
    return Coded(tuple(int(i) for i in items), tuple(int(a) for a in annotators), tuple(labels), task, worker, codes)


@dataclass(frozen=True)
class AnnotatorFit:
    """One annotator's estimate: `ability` is the expected share of their judgments that equal the
    item's true label under the fitted posteriors, with a 95% Wilson interval over their judgments;
    `parameters` is what `item_posterior` needs of them (a confusion matrix, or a skill)."""

    annotator_id: int
    judgments: int
    ability: float
    low: float
    high: float
    parameters: dict[str, Any]


@dataclass(frozen=True)
class Fit:
    model: str
    hyperparameters: dict[str, Any]
    labels: tuple[str, ...]
    priors: dict[str, float]  # label -> prior probability of the true label
    items: tuple[int, ...]
    posteriors: Any  # np.ndarray (items x labels), rows summing to 1
    annotators: tuple[AnnotatorFit, ...]
    judgments: int
    iterations: int | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def posterior(self, row: int) -> dict[str, float]:
        return {label: float(p) for label, p in zip(self.labels, self.posteriors[row], strict=True)}

    def top_labels(self) -> list[str]:
        """The most probable label of each item (ties: the first label in sorted order)."""
        return [self.labels[n] for n in self.posteriors.argmax(axis=1)]


def wilson(successes: float, n: int) -> tuple[float, float]:
    """95% Wilson score interval of a share (successes may be fractional: expected counts)."""
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def _frame(coded: Coded) -> Any:
    import pandas as pd

    return pd.DataFrame({"task": coded.task, "worker": coded.worker, "label": coded.label})


def _dense(frame: Any, rows: int, columns: int) -> Any:
    """A crowd-kit probability frame indexed by integer codes -> a dense array in code order."""
    out = np.zeros((rows, columns))
    values = frame.to_numpy(dtype=float)
    out[np.ix_(frame.index.to_numpy(dtype=np.int64), frame.columns.to_numpy(dtype=np.int64))] = values
    return out


def fit(model: str, coded: Coded, *, hyperparameters: Mapping[str, Any] | None = None) -> Fit:
    """Fit `model` on the coded judgments (at least one)."""
    # crowd-kit 1.4 calls pandas APIs that pandas 3 deprecates (inplace=...), hundreds of warnings per
    # fit: silenced here so the worker's log keeps what matters.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", category=DeprecationWarning)
        warnings.simplefilter("ignore", category=FutureWarning)
        return _fit(model, coded, hyperparameters)


def _fit(model: str, coded: Coded, hyperparameters: Mapping[str, Any] | None) -> Fit:
    if model not in MODELS:
        raise ValueError(f"Unknown aggregation model {model!r}; known: {', '.join(MODELS)}")
    if not coded.size:
        raise ValueError("No judgments to fit.")
    params = {**HYPERPARAMETERS[model], **(hyperparameters or {})}
    n_items, n_workers, n_labels = len(coded.items), len(coded.annotators), len(coded.labels)
    frame = _frame(coded)
    iterations = None
    per_annotator: list[dict[str, Any]]
    if model == DAWID_SKENE:
        from crowdkit.aggregation import DawidSkene

        ds = DawidSkene(n_iter=params["n_iter"], tol=params["tol"]).fit(frame)
        posteriors = _dense(ds.probas_, n_items, n_labels)
        priors = np.zeros(n_labels)
        priors[ds.priors_.index.to_numpy(dtype=np.int64)] = ds.priors_.to_numpy(dtype=float)
        # errors_: rows (worker, observed label), columns the true label -> confusion[worker, true, observed].
        confusion = np.zeros((n_workers, n_labels, n_labels))
        errors = ds.errors_
        workers = errors.index.get_level_values(0).to_numpy(dtype=np.int64)
        observed = errors.index.get_level_values(1).to_numpy(dtype=np.int64)
        true = errors.columns.to_numpy(dtype=np.int64)
        confusion[workers[:, None], true[None, :], observed[:, None]] = errors.to_numpy(dtype=float)
        per_annotator = [{"confusion": _rounded(confusion[w])} for w in range(n_workers)]
        iterations = len(ds.loss_history_)
    elif model == GLAD:
        from crowdkit.aggregation import GLAD as CrowdKitGLAD

        glad = CrowdKitGLAD(n_iter=params["n_iter"], tol=params["tol"]).fit(frame)
        posteriors = _dense(glad.probas_, n_items, n_labels)
        priors = np.zeros(n_labels)
        priors[glad.priors_.index.to_numpy(dtype=np.int64)] = glad.priors_.to_numpy(dtype=float)
        alphas = np.zeros(n_workers)
        alphas[glad.alphas_.index.to_numpy(dtype=np.int64)] = glad.alphas_.to_numpy(dtype=float)
        per_annotator = [{"alpha": float(alphas[w])} for w in range(n_workers)]
        iterations = len(glad.loss_history_)
    else:
        from crowdkit.aggregation import MACE as CrowdKitMACE

        mace = CrowdKitMACE(
            n_iter=params["n_iter"], n_restarts=params["n_restarts"], random_state=params["random_state"]
        ).fit(frame)
        posteriors = _dense(mace.probas_, n_items, n_labels)
        priors = np.full(n_labels, 1.0 / n_labels)
        # MACE numbers workers and labels in order of first appearance (pandas.factorize): back to codes.
        worker_order = np.unique(coded.worker, return_index=True)
        first_seen_workers = coded.worker[np.sort(worker_order[1])]
        first_seen_labels = coded.label[np.sort(np.unique(coded.label, return_index=True)[1])]
        competence = np.zeros(n_workers)
        thetas = np.zeros((n_workers, n_labels))
        competence[first_seen_workers] = mace.spamming_[:, 1]
        thetas[np.ix_(first_seen_workers, first_seen_labels)] = mace.thetas_
        per_annotator = [
            {"competence": float(competence[w]), "strategy": _rounded(thetas[w])} for w in range(n_workers)
        ]
    posteriors = posteriors / posteriors.sum(axis=1, keepdims=True)
    # Expected correct judgments of each annotator: the posterior of the label they gave.
    expected = np.bincount(coded.worker, weights=posteriors[coded.task, coded.label], minlength=n_workers)
    counts = np.bincount(coded.worker, minlength=n_workers)
    annotators = []
    for w, annotator_id in enumerate(coded.annotators):
        low, high = wilson(float(expected[w]), int(counts[w]))
        annotators.append(
            AnnotatorFit(
                annotator_id=annotator_id,
                judgments=int(counts[w]),
                ability=float(expected[w] / counts[w]) if counts[w] else 0.0,
                low=low,
                high=high,
                parameters=per_annotator[w],
            )
        )
    return Fit(
        model=model,
        hyperparameters=params,
        labels=coded.labels,
        priors={label: float(p) for label, p in zip(coded.labels, priors, strict=True)},
        items=coded.items,
        posteriors=posteriors,
        annotators=tuple(annotators),
        judgments=coded.size,
        iterations=iterations,
    )


def _rounded(matrix: Any) -> Any:
    return np.round(matrix, 6).tolist()


def item_posterior(
    *,
    model: str,
    labels: Sequence[str],
    priors: Mapping[str, float],
    annotators: Mapping[int, Mapping[str, Any]],
    judgments: Iterable[tuple[int, str]],
) -> dict[str, float]:
    """One item's posterior from a stored fit's parameters and the item's (annotator id, label)
    judgments, without refitting: what a judging engine needs when one more judgment arrives.

    An annotator or a label the fit never saw adds nothing (their skill is unknown); GLAD's item
    difficulty is unknown for a new item, so it is taken as average (beta = 0)."""
    index = {label: n for n, label in enumerate(labels)}
    k = len(labels)
    log_p = np.log(np.clip(np.array([priors.get(label, 0.0) for label in labels], dtype=float), EPS, None))
    for annotator_id, label in judgments:
        params, observed = annotators.get(annotator_id), index.get(label)
        if params is None or observed is None:
            continue
        if model == DAWID_SKENE:
            column = np.array(params["confusion"], dtype=float)[:, observed]
            log_p += np.log(np.clip(column, EPS, None))
        elif model == GLAD:
            correct = 1.0 / (1.0 + math.exp(-float(params["alpha"])))
            likelihood = np.full(k, (1.0 - correct) / max(k - 1, 1))
            likelihood[observed] = correct
            log_p += np.log(np.clip(likelihood, EPS, None))
        elif model == MACE:
            competence = float(params["competence"])
            strategy = np.array(params["strategy"], dtype=float)
            likelihood = (1.0 - competence) * strategy[observed] + competence * (np.arange(k) == observed)
            log_p += np.log(np.clip(likelihood, EPS, None))
        else:
            raise ValueError(f"Unknown aggregation model {model!r}")
    p = np.exp(log_p - log_p.max())
    p /= p.sum()
    return {label: float(v) for label, v in zip(labels, p, strict=True)}
