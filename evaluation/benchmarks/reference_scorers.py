"""Task types whose model task has several references per item score their own benchmark replies.

The core's likelihood mode picks the most likely option and its open-ended mode waits for reviewers;
a task type whose items carry sets of references (e.g. relevant and irrelevant responses) registers,
from its `evaluation/task_types/<name>/kinds.py`, a `ReferenceScorer`:

- `likelihood(letters, scores, case, normalisation)` is called once all of an item's options are scored
  (evaluation/benchmarks/likelihood_runs.record) and returns the prediction's answer, whether it is
  correct, and metrics stored in the prediction's reply JSON under "metrics";
- `open_ended(reply, case)` scores a free reply against the case's references at once (the run kind's
  on_result) instead of leaving it to reviewers;
- `continuation_prefix`: what goes between the prompt and each scored option (" " by default; "" when
  the template ends with an assistant turn's header and the option is the whole reply).

Pure callables: no I/O. Nothing here names a task type.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from evaluation.benchmarks.likelihood import OptionScore
from evaluation.benchmarks.scoring import Score


@dataclass(frozen=True)
class LikelihoodOutcome:
    answer: str
    correct: bool
    metrics: dict[str, Any]


@dataclass(frozen=True)
class ReferenceScorer:
    likelihood: Callable[[Sequence[str], Sequence[OptionScore], Any, str], LikelihoodOutcome] | None = None
    open_ended: Callable[[str, Any], Score] | None = None
    continuation_prefix: str = " "


_SCORERS: dict[str, ReferenceScorer] = {}


def register(task_type: str, scorer: ReferenceScorer) -> None:
    _SCORERS[task_type] = scorer


def scorer_for(task_type: str | None) -> ReferenceScorer | None:
    return _SCORERS.get(task_type or "")
