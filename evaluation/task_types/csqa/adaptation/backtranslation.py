"""LLM_ADAPT step 3 (optional): translate into a second language and keep an item only if translating it
back gives text similar enough to the original (Putri et al. 2024, §4.1 "Data Filtering": discard when
the similarity of ind and back-translated ind' is below 0.9).

The paper measured similarity with multilingual MiniLM and LaBSE embeddings. Here: cosine of the
endpoint's embeddings when it offers them, chrF (sacrebleu, 0-1) otherwise. The score and the method
are stored either way, since the two scales are not comparable.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from sacrebleu.metrics import CHRF

from evaluation import templating

DEFAULT_THRESHOLD = 0.9
EMBEDDING_COSINE = "embedding_cosine"
CHRF_METHOD = "chrf"

# Not from the paper (it used the Google Translation API): a plain instruction asking for the
# translation alone, so the reply is the text to compare.
TRANSLATE_TEMPLATE = (
    "Translate the following {{ source_language }} text into {{ target_language }}. "
    "Return only the translation.\n\n{{ text }}"
)

_CHRF = CHRF()


def translate_prompt(
    *, text: str, source_language: str, target_language: str, template: str = TRANSLATE_TEMPLATE
) -> str:
    fields = {"text": text, "source_language": source_language, "target_language": target_language}
    return templating.render(template, fields)


def chrf(hypothesis: str, reference: str) -> float:
    """Sentence chrF on a 0-1 scale, rounded to 4 places."""
    return round(_CHRF.sentence_score(hypothesis, [reference]).score / 100, 4)


def cosine(a: Sequence[float], b: Sequence[float]) -> float:
    if len(a) != len(b) or not a:
        raise ValueError("Embeddings must be non-empty and of the same length.")
    dot = sum(x * y for x, y in zip(a, b, strict=True))
    norm = math.sqrt(sum(x * x for x in a)) * math.sqrt(sum(y * y for y in b))
    return round(dot / norm, 4) if norm else 0.0


@dataclass(frozen=True)
class BackTranslationCheck:
    method: str
    score: float
    threshold: float

    @property
    def passed(self) -> bool:
        return self.score >= self.threshold


def check(
    *,
    original: str,
    back_translated: str,
    embeddings: tuple[Sequence[float], Sequence[float]] | None = None,
    threshold: float = DEFAULT_THRESHOLD,
) -> BackTranslationCheck:
    """Embeddings (original's, back-translation's) when the endpoint has them; chrF otherwise."""
    if not 0 <= threshold <= 1:
        raise ValueError("The threshold is between 0 and 1.")
    if embeddings is not None:
        return BackTranslationCheck(EMBEDDING_COSINE, cosine(*embeddings), threshold)
    return BackTranslationCheck(CHRF_METHOD, chrf(back_translated, original), threshold)


def item_text(payload: dict) -> str:
    """What is compared for an item: the question and its options, one per line."""
    return "\n".join([payload.get("question", ""), *payload.get("choices", [])])
