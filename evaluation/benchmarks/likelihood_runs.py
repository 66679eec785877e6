"""Benchmark runs in "likelihood" mode (evaluation/benchmarks/kind.py): instead of asking the model to
answer, each option is scored as the continuation of the prompt and the most likely one is the answer.

- Per (item, template) one unit per option, operation "score": context = the run's `prompt_prefix` +
  the rendered template (which ends with "Answer:"), continuation = " " + the option's text. Scoring
  the option's text, not its letter, is the common practice for commonsense multiple choice (lm-eval's
  commonsense_qa, arc, hellaswag: `Answer:` + ` {choice}`): a letter's probability mostly measures
  whether the model follows the letter format. An empty option (an item with fewer options than letters
  choices is padded with "") cannot be scored and is not a candidate.
- Unit key "item<ID>:<letter>"; the call's `logprobs` keep the continuation's tokens, their
  log-probabilities and its UTF-8 length (evaluation/results.py).
- When the last option's call of an (item, endpoint, template) finishes, the prediction is made once:
  the BenchmarkCase row is locked (`lock_cases`, all of a batch's cases in id order, before the
  batch's calls are written), then the options' calls are read; only the transaction that finds none
  unfinished picks (evaluation/benchmarks/likelihood.py) and stores the Prediction, rule
  "likelihood:<normalisation>", reply = the per-option scores as JSON. An option whose call failed
  for good makes the prediction "call_failed" (unparsed; left out of accuracy).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any

from annotation.errors import InvalidInput
from evaluation.benchmarks.likelihood import OptionScore, pick
from evaluation.benchmarks.reference_scorers import scorer_for
from evaluation.kinds import Unit
from evaluation.models import BenchmarkCase, Call, Prediction

UNFINISHED = (Call.Status.PENDING, Call.Status.RUNNING, Call.Status.CANCELLED)


def option_key(item_id: int, letter: str) -> str:
    return f"item{item_id}:{letter}"


def continuation_of(option: str, prefix: str = " ") -> str:
    return prefix + option.strip()


def candidates(answers: Iterable[str], options: Iterable[str]) -> list[tuple[str, str]]:
    """(letter, option text) of the options that can be scored, in the answers' order."""
    return [(letter, text) for letter, text in zip(answers, options, strict=False) if str(text).strip()]


def score_units(
    *,
    item_id: int,
    template: str,
    context: str,
    answers: Iterable[str],
    options: Iterable[str],
    continuation_prefix: str = " ",
) -> Iterator[Unit]:
    for letter, text in candidates(answers, options):
        yield Unit(
            key=option_key(item_id, letter),
            template=template,
            operation="score",
            context=context,
            continuation=continuation_of(text, continuation_prefix),
        )


def preflight(parameters: dict[str, Any], endpoints: Iterable[Any]) -> None:
    """Ask each endpoint once whether its echoed log-probabilities are right for prompts starting with
    the run's prefix; refuse the run (nothing is created) naming the first endpoint that is not."""
    from evaluation.llm import client as llm  # HTTP: only here, before the run exists

    for endpoint in sorted(endpoints, key=lambda e: e.pk):
        try:
            support = llm.supports_likelihood(llm.EndpointConfig.of(endpoint), prefix=parameters["prompt_prefix"])
        except llm.LLMError as error:
            raise InvalidInput(
                f"Endpoint “{endpoint.name}” could not be asked whether it supports likelihood scoring: "
                f"{error.message}",
                field_errors={"endpoint": ["Unreachable."]},
            ) from None
        if not support.supported:
            raise InvalidInput(
                f"Endpoint “{endpoint.name}” cannot be used for likelihood scoring. {support.reason}",
                field_errors={"mode": ["Not supported by this endpoint."]},
            )


def lock_cases(run: Any, item_ids: Iterable[int]) -> None:
    """Lock the batch's cases in id order before its calls are written (RunKind.lock): two workers
    recording options of the same items never wait on each other in a cycle, and the second to finish
    an (item, endpoint, template) sees the first one's options committed."""
    ids = sorted(set(item_ids))
    if ids:
        list(
            BenchmarkCase.objects.select_for_update()
            .filter(run_id=run.pk, item_id__in=ids)
            .order_by("pk")
            .values_list("pk", flat=True)
        )


def record(run: Any, call: Any, case: BenchmarkCase) -> None:
    """A call of one option finished (done or failed for good): the prediction, if it was the last."""
    normalisation = run.parameters["normalisation"]
    letters = [letter for letter, _ in candidates(case.answers, case.options)]
    keys = {option_key(case.item_id, letter): letter for letter in letters}
    rows = {
        row["unit_key"]: row
        for row in Call.objects.filter(
            run_id=run.pk, endpoint_id=call.endpoint_id, template=call.template, unit_key__in=list(keys)
        ).values("pk", "unit_key", "status", "logprobs", "request")
    }
    if len(rows) < len(keys) or any(row["status"] in UNFINISHED for row in rows.values()):
        return  # another option is still to come; its transaction (after this one's) predicts
    if Prediction.objects.filter(
        run_id=run.pk, item_id=case.item_id, endpoint_id=call.endpoint_id, template=call.template
    ).exists():
        return
    common = {
        "run_id": run.pk,
        "case": case,
        "item_id": case.item_id,
        "endpoint_id": call.endpoint_id,
        "template": call.template,
        "gold": case.gold,
    }
    ordered = [rows[option_key(case.item_id, letter)] for letter in letters]
    if any(row["status"] != Call.Status.DONE for row in ordered):
        failed = next(row for row in ordered if row["status"] != Call.Status.DONE)
        Prediction.objects.create(**common, call_id=failed["pk"], rule="call_failed")
        return
    scores = [
        OptionScore(token_logprobs=tuple(row["logprobs"]["token_logprobs"]), byte_length=row["logprobs"]["byte_length"])
        for row in ordered
    ]
    chosen = pick(scores, normalisation)
    # A task type with several references per item scores the item itself (reference_scorers.py).
    scorer = scorer_for(run.project.task_type if run.project_id is not None else None)
    outcome = scorer.likelihood(letters, scores, case, normalisation) if scorer and scorer.likelihood else None
    reply = {
        "normalisation": normalisation,
        "options": [
            {
                "answer": letter,
                "continuation": row["request"]["continuation"],
                "tokens": row["logprobs"]["tokens"],
                "token_logprobs": row["logprobs"]["token_logprobs"],
                "byte_length": row["logprobs"]["byte_length"],
                "score": score,
            }
            for letter, row, score in zip(letters, ordered, chosen.scores, strict=True)
        ],
    }
    answer = letters[chosen.index]
    correct = answer == case.gold
    if outcome is not None:
        answer, correct = outcome.answer, outcome.correct
        reply["metrics"] = outcome.metrics
    Prediction.objects.create(
        **common,
        call_id=ordered[letters.index(answer)]["pk"] if answer in letters else ordered[chosen.index]["pk"],
        reply=json.dumps(reply, ensure_ascii=False),
        answer=answer,
        parsed=True,
        correct=correct,
        rule=f"likelihood:{normalisation}",
    )
