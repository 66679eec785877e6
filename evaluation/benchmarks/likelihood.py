"""Picking an option by likelihood: each option's continuation was scored by the model
(evaluation/llm/client.py `score_continuation`); the most likely option wins. Pure: no I/O.

Normalisation, so long options are not punished for being long:
- "tokens": sum of log-probabilities / token count (the mean per token; depends on the tokenizer),
- "bytes":  sum / UTF-8 bytes of the continuation (comparable across tokenizers, lm-eval's acc_norm
  uses characters; bytes count Indonesian and Arabic text alike),
- "none":   the plain sum (favours short options).
Ties (equal normalised scores) go to the first option in the given order, so a result never depends
on dict or set order. An option with no tokens or no bytes cannot be normalised and is refused.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

NORMALISATIONS = ("tokens", "bytes", "none")


@dataclass(frozen=True)
class OptionScore:
    """One option's scored continuation: its token log-probabilities and its length in UTF-8 bytes."""

    token_logprobs: tuple[float, ...]
    byte_length: int

    @property
    def token_count(self) -> int:
        return len(self.token_logprobs)

    @classmethod
    def of(cls, result) -> OptionScore:
        """From the client's LikelihoodResult."""
        return cls(token_logprobs=tuple(result.token_logprobs), byte_length=result.byte_length)


@dataclass(frozen=True)
class Pick:
    index: int  # the chosen option's position in the given order
    scores: tuple[float, ...]  # every option's normalised score, same order
    normalisation: str


def normalised(option: OptionScore, normalisation: str) -> float:
    total = sum(option.token_logprobs)
    if normalisation == "none":
        return total
    if normalisation == "tokens":
        if option.token_count == 0:
            raise ValueError("an option with no tokens cannot be normalised by token count")
        return total / option.token_count
    if normalisation == "bytes":
        if option.byte_length <= 0:
            raise ValueError("an option with no bytes cannot be normalised by bytes")
        return total / option.byte_length
    raise ValueError(f"unknown normalisation {normalisation!r}; one of {', '.join(NORMALISATIONS)}")


def pick(options: Sequence[OptionScore], normalisation: str = "tokens") -> Pick:
    """The most likely option under NORMALISATION; the first of equals wins."""
    if not options:
        raise ValueError("no options to pick from")
    scores = tuple(normalised(option, normalisation) for option in options)
    best = 0
    for index, score in enumerate(scores):
        if score > scores[best]:  # strictly greater: an equal later option never displaces the first
            best = index
    return Pick(index=best, scores=scores, normalisation=normalisation)
