"""nli as a model task: one of three labels (pure).

Templates: a label prompt in Indonesian and one in English (ours: the IndoNLI paper benchmarks
fine-tuned classifiers, not prompts). Both ask for the English label word, so one extraction rule set
reads every reply. Gold key: "gold", the label chosen by three (the gold decision's details). The
human baseline is the validators' majority label against it, a pair with no majority label counting
as "entailment" (IndoNLI, Mahendra et al. 2021, Appendix C: "For pairs with no majority label, we use
the most frequent label from INDONLI test data (entailment)").
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy

from annotation.task_types.base import BenchmarkItem, BenchmarkSpec, BenchmarkTemplate, ExportRecord
from annotation.task_types.nli.labels import LABELS, UnknownLabel, normalize_label

TEMPLATES = (
    BenchmarkTemplate(
        name="label_id",
        label=gettext_lazy("Label prompt (Indonesian)"),
        text="Premis: {{ premise }}\n"
        "Hipotesis: {{ hypothesis }}\n"
        "Apakah hipotesis tersebut pasti benar (entailment), mungkin benar (neutral), atau pasti salah "
        "(contradiction) berdasarkan premis? Jawab dengan satu kata: entailment, neutral, atau contradiction.\n"
        "Jawaban:",
    ),
    BenchmarkTemplate(
        name="label_en",
        label=gettext_lazy("Label prompt (English)"),
        text="Premise: {{ premise }}\n"
        "Hypothesis: {{ hypothesis }}\n"
        "Given the premise, is the hypothesis definitely true (entailment), possibly true (neutral), or "
        "definitely false (contradiction)? Answer with one word: entailment, neutral or contradiction.\n"
        "Answer:",
    ),
)

SPEC = BenchmarkSpec(
    kind="label",
    answers=LABELS,
    gold_keys=("gold",),
    templates=TEMPLATES,
    fields=("premise", "hypothesis", "category"),
    gold_key_labels={"gold": gettext_lazy("The gold label (chosen by three)")},
    human_no_majority="entailment",
)


def _label(value: object) -> str | None:
    try:
        return normalize_label(value)
    except UnknownLabel:
        return None


def benchmark_item(record: ExportRecord, *, gold_key: str) -> BenchmarkItem | None:
    gold = _label(record.gold.details.get("label")) if record.gold is not None else None
    if gold_key != "gold" or gold is None:
        return None
    validators = tuple(
        label for label in (_label((j.value or {}).get("label")) for j in record.judgments) if label is not None
    )
    return BenchmarkItem(
        fields={
            "premise": str(record.item.unit_data.get("text", "")),
            "hypothesis": record.item.payload.get("hypothesis", ""),
            "category": record.item.category,
        },
        options=(),
        gold=gold,
        human_answers=validators,
    )
