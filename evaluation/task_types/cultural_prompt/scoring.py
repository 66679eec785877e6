"""KALAHI's model scores (Montalan et al. 2024, section 4.2), pure.

Each response r is scored as the continuation of the prompt (the assistant's reply): L(r) = the sum of
its tokens' log-probabilities, s(r) = L(r) normalised by the run's normalisation (the paper: UTF-8
bytes, s(r) = L(r) / bytes(r)). With R the relevant responses (b the best among them) and I the
irrelevant ones:

    MC1 = 1 if s(b) > max_{i in I} s(i), else 0           (best + irrelevant only; a tie is 0)
    MC2 = sum_{r in R} exp(L(r)) / sum_{a in R u I} exp(L(a))
          (the probability mass of the relevant set; computed with log-sum-exp from summed log-probs)
    MC2 (published) = sum_{r in R} exp(exp(s(r))) / sum_{a in R u I} exp(exp(s(a)))
          (the KALAHI code exponentiates the per-byte score twice: every value lands near |R| / |R u I|;
          reported beside MC2, named as such, to compare with the paper)
    MC3 = |{r in R : s(r) > max_{i in I} s(i)}| / |R|

Open-ended: the greedy reply g is compared with every reference by chrF, BLEU (sacrebleu, sentence
level) and ROUGE-L F1 (rouge-score); for each metric m the score is max_{r in R} m(g, r) -
max_{i in I} m(g, i), and its accuracy is the share of items where it is positive.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from annotation.task_types.cultural_prompt.benchmark import IRRELEVANT_LETTERS, RELEVANT_LETTERS
from evaluation.benchmarks.likelihood import OptionScore, normalised
from evaluation.benchmarks.reference_scorers import LikelihoodOutcome
from evaluation.benchmarks.scoring import Score

OVERLAP_METRICS = ("chrf", "bleu", "rouge_l")
PRIMARY = "chrf"  # the open-ended prediction's `correct`: chrF's max-relevant minus max-irrelevant > 0


def _logsumexp(values: Sequence[float]) -> float:
    top = max(values)
    return top + math.log(sum(math.exp(v - top) for v in values))


def mc_scores(
    relevant: Sequence[OptionScore], irrelevant: Sequence[OptionScore], best: int, normalisation: str = "bytes"
) -> dict[str, float]:
    """MC1, MC2, MC2 (published) and MC3 of one item (module doc)."""
    if not relevant or not irrelevant or not 0 <= best < len(relevant):
        raise ValueError("an item needs relevant and irrelevant responses and a best among the relevant")
    s_rel = [normalised(o, normalisation) for o in relevant]
    s_irr = [normalised(o, normalisation) for o in irrelevant]
    total_rel = [sum(o.token_logprobs) for o in relevant]
    total_all = total_rel + [sum(o.token_logprobs) for o in irrelevant]
    top_irrelevant = max(s_irr)
    published_rel = [math.exp(math.exp(s)) for s in s_rel]
    published_all = published_rel + [math.exp(math.exp(s)) for s in s_irr]
    return {
        "mc1": 1.0 if s_rel[best] > top_irrelevant else 0.0,
        "mc2": math.exp(_logsumexp(total_rel) - _logsumexp(total_all)),
        "mc2_published": sum(published_rel) / sum(published_all),
        "mc3": sum(s > top_irrelevant for s in s_rel) / len(s_rel),
    }


def likelihood(
    letters: Sequence[str], scores: Sequence[OptionScore], case: Any, normalisation: str
) -> LikelihoodOutcome:
    """The engine's hook (reference_scorers): letters A-E relevant, F-J irrelevant (benchmark.py)."""
    by_letter = dict(zip(letters, scores, strict=True))
    rel_letters = [x for x in RELEVANT_LETTERS if x in by_letter]
    irr_letters = [x for x in IRRELEVANT_LETTERS if x in by_letter]
    best = rel_letters.index(case.gold)
    metrics = mc_scores([by_letter[x] for x in rel_letters], [by_letter[x] for x in irr_letters], best, normalisation)
    # the MC1 pick: the most likely of best + irrelevant (the best wins only when strictly above)
    candidates = [case.gold, *irr_letters]
    values = {x: normalised(by_letter[x], normalisation) for x in candidates}
    answer = case.gold if metrics["mc1"] == 1.0 else max(irr_letters, key=lambda x: values[x])
    return LikelihoodOutcome(answer=answer, correct=metrics["mc1"] == 1.0, metrics=metrics)


def overlap(reply: str, reference: str) -> dict[str, float]:
    """chrF, BLEU (0-100, sacrebleu sentence level) and ROUGE-L F1 (0-1) of a reply against one reference."""
    import sacrebleu
    from rouge_score import rouge_scorer

    scorer = rouge_scorer.RougeScorer(["rougeL"])
    return {
        "chrf": sacrebleu.sentence_chrf(reply, [reference]).score,
        "bleu": sacrebleu.sentence_bleu(reply, [reference]).score,
        "rouge_l": scorer.score(reference, reply)["rougeL"].fmeasure,
    }


def references(case: Any) -> tuple[list[str], list[str]]:
    options = list(case.options)
    half = len(RELEVANT_LETTERS)
    return [o for o in options[:half] if o], [o for o in options[half:] if o]


def open_ended_scores(reply: str, relevant: Sequence[str], irrelevant: Sequence[str]) -> dict[str, float]:
    """For each metric: max over relevant minus max over irrelevant (module doc)."""
    rel = [overlap(reply, r) for r in relevant]
    irr = [overlap(reply, i) for i in irrelevant]
    return {m: max(x[m] for x in rel) - max(x[m] for x in irr) for m in OVERLAP_METRICS}


def open_ended(reply: str, case: Any) -> Score:
    """The engine's hook: the reply is closer to a relevant (answer "relevant") or an irrelevant reference."""
    relevant, irrelevant = references(case)
    if not reply.strip() or not relevant or not irrelevant:
        return Score(answer="", parsed=False, correct=False, rule="overlap:empty")
    diff = open_ended_scores(reply, relevant, irrelevant)[PRIMARY]
    return Score(
        answer="relevant" if diff > 0 else "irrelevant", parsed=True, correct=diff > 0, rule=f"overlap:{PRIMARY}"
    )
