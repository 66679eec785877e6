"""Fit time of the aggregation models on generated judgments (no database): by default 100,000 items x 5
of 6 annotators (500,000 judgments), 5 labels, one annotator near chance. Prints one JSON line per model.

    .venv/bin/python bench/aggregation_fit.py [--items N] [--models dawid_skene,glad,mace]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from annotation.aggregation.fitting import Coded, fit  # noqa: E402


def generated(items: int, *, annotators: int = 6, per_item: int = 5, labels: int = 5, seed: int = 0) -> tuple:
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, labels, items)
    accuracy = np.linspace(0.9, 0.3, annotators)
    task = np.repeat(np.arange(items), per_item)
    worker = np.argsort(rng.random((items, annotators)), axis=1)[:, :per_item].ravel()
    correct = rng.random(task.size) < accuracy[worker]
    label = np.where(correct, truth[task], rng.integers(0, labels, task.size))
    coded = Coded(
        items=tuple(range(items)),
        annotators=tuple(range(annotators)),
        labels=tuple(chr(ord("A") + n) for n in range(labels)),
        task=task,
        worker=worker,
        label=label,
    )
    return coded, truth


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--items", type=int, default=100_000)
    parser.add_argument("--models", default="dawid_skene")
    args = parser.parse_args()
    coded, truth = generated(args.items)
    for model in args.models.split(","):
        started = time.perf_counter()
        result = fit(model, coded)
        seconds = time.perf_counter() - started
        accuracy = float((result.posteriors.argmax(axis=1) == truth).mean())
        print(
            json.dumps(
                {
                    "model": model,
                    "judgments": coded.size,
                    "items": len(coded.items),
                    "fit_seconds": round(seconds, 2),
                    "iterations": result.iterations,
                    "accuracy_vs_truth": round(accuracy, 4),
                }
            ),
            flush=True,
        )


if __name__ == "__main__":
    main()
