"""Machine checks on a writer's six hypotheses for one premise (the writing instructions, Appendix D).

Errors are certain and must be fixed: not six hypotheses, an empty one, an unknown label, not two per
label, two identical hypotheses, a hypothesis identical to a sentence of the premise.
Warnings are heuristics and may be overridden with a justification: more than one sentence (the
sentence splitter can be fooled by an abbreviation) and no content word shared with the premise (a
paraphrase or a derived form can keep the meaning without repeating a word).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from annotation.task_types.nli.labels import LABELS, UnknownLabel, normalize_label
from annotation.task_types.nli.text import normalize_sentence, split_sentences, words

HYPOTHESES_PER_PREMISE = 6
PER_LABEL = 2

# Function words that do not make a hypothesis "about" the premise: sharing only these is not sharing a
# keyword. Negation and quantifier words are here too: "tidak" in both texts says nothing about topic.
STOP_WORDS: frozenset[str] = frozenset(
    """
    ada adalah agar akan aku anda antara apa apakah atau bagi bahwa banyak bawah beberapa begitu belum
    benar bersama beliau bila bisa boleh bukan bukanlah dalam dan dapat dari daripada demikian dengan di
    dia ini itu ia jadi jika juga kalau kami kamu karena ke kecuali kepada ketika kita lagi lah lain
    lebih maka masih mau mereka meski meskipun misalnya mungkin namun nya oleh pada paling para per
    perlu pernah pun saat saja sama sang sangat saya se sebagai sebelum sebuah secara sedang sehingga
    sejak seluruh semua seorang seperti sesudah setelah setiap si suatu sudah tak tanpa tapi telah
    tentang terhadap tersebut tetapi tidak tidaklah untuk walau yaitu yakni yang
    """.split()  # noqa: SIM905 (a word list reads better as text)
)


@dataclass(frozen=True)
class Issue:
    index: int | None  # the hypothesis (0-based) the issue is about; None for the set as a whole
    code: str
    message: str


@dataclass(frozen=True)
class CheckResult:
    errors: list[Issue] = field(default_factory=list)
    warnings: list[Issue] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.errors


def content_words(text: str) -> set[str]:
    return {word for word in words(text) if word not in STOP_WORDS and (len(word) > 1 or word.isdigit())}


def check_hypotheses(premise: str, hypotheses: Sequence[tuple[str, object]]) -> CheckResult:
    """Check (text, label) x 6 written for `premise`. Messages name the hypothesis (1-based for people)."""
    result = CheckResult()
    errors, warnings = result.errors, result.warnings
    if len(hypotheses) != HYPOTHESES_PER_PREMISE:
        errors.append(Issue(None, "count", f"Write {HYPOTHESES_PER_PREMISE} hypotheses; there are {len(hypotheses)}."))

    premise_sentences = {normalize_sentence(sentence) for sentence in split_sentences(premise)}
    premise_words = content_words(premise)
    labels: list[str] = []
    seen: dict[str, int] = {}
    for index, (text, raw_label) in enumerate(hypotheses):
        name = f"Hypothesis {index + 1}"
        try:
            label = normalize_label(raw_label)
        except UnknownLabel:
            label = None
        if label is None:
            errors.append(Issue(index, "label", f"{name}: choose entailment, neutral or contradiction."))
        else:
            labels.append(label)
        text = (text or "").strip()
        normalized = normalize_sentence(text)
        if not normalized:
            errors.append(Issue(index, "empty", f"{name} is empty."))
            continue
        if normalized in premise_sentences:
            errors.append(Issue(index, "copies_premise", f"{name} is identical to a sentence of the premise."))
        if normalized in seen:
            first = seen[normalized]
            errors.append(Issue(index, "duplicate", f"{name} is the same as hypothesis {first + 1}."))
        else:
            seen[normalized] = index
        if len(split_sentences(text)) > 1:
            warnings.append(Issue(index, "one_sentence", f"{name} looks like more than one sentence."))
        if not content_words(text) & premise_words:
            warnings.append(Issue(index, "no_shared_word", f"{name} shares no keyword with the premise."))

    counts = Counter(labels)
    wrong = [label for label in LABELS if counts[label] != PER_LABEL]
    if len(hypotheses) == HYPOTHESES_PER_PREMISE and len(labels) == len(hypotheses) and wrong:
        spread = ", ".join(f"{counts[label]} {label}" for label in LABELS)
        errors.append(Issue(None, "labels_per_premise", f"Write {PER_LABEL} hypotheses per label; there are {spread}."))
    return result
