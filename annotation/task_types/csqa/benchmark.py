"""csqa as a model task: multiple choice with the letters A-E (pure).

Templates: the three zero-shot prompts of Putri et al. 2024, Appendix F ("Zero-Shot Benchmark Prompts"),
copied as printed with `{{ field }}` in place of `{CONCEPT}`, `{QUESTION}`, `{CHOICE_A}`...; the
paper's line break inside "(with answers)" is the PDF's column wrap, so it is joined.
Gold keys: "author" (the author's answer, the paper's key) and "majority" (the answerers' majority
kept in the gold decision's details). The human baseline is the answerers' majority against the gold key
(the paper's human figure): `human_answers` are the answerers' answers in annotator order (the report
takes their majority, ties to the answer given first, as the gold policy does), or the recorded
majority alone when the item's answers are not in the database.
The open-ended template (Section 7.1, "asking the question directly without showing answer options or
providing any extra instructions") is only the question; its replies are judged by reviewers.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy

from annotation.task_types.base import BenchmarkItem, BenchmarkSpec, BenchmarkTemplate, ExportRecord
from annotation.task_types.csqa.payload import LABELS

SOURCE = gettext_lazy("Putri et al. 2024, Appendix F (Zero-Shot Benchmark Prompts)")
_OPTIONS = "".join(f"{label}. {{{{ choice_{label.lower()} }}}}\n" for label in LABELS)

TEMPLATES = (
    BenchmarkTemplate(
        name="mmlu_concept",
        label=gettext_lazy("Prompt variation 1 (MMLU-style, with the concept)"),
        text='The following are multiple choice questions (with answers) about "{{ concept }}".\n'
        "{{ question }}\n" + _OPTIONS + "Answer:",
        source=SOURCE,
    ),
    BenchmarkTemplate(
        name="question_choices",
        label=gettext_lazy("Prompt variation 2 (lm-eval Question/Choices/Answer)"),
        text="Question: {{ question }}\nChoices:\n" + _OPTIONS + "Answer:",
        source=SOURCE,
    ),
    BenchmarkTemplate(
        name="helm",
        label=gettext_lazy("Prompt variation 3 (HELM-style)"),
        text='The following are multiple choice questions (with answers) about "{{ concept }}".\n'
        "Question: {{ question }}\n" + _OPTIONS + "Answer:",
        source=SOURCE,
    ),
    BenchmarkTemplate(
        name="open_ended",
        label=gettext_lazy("Open-ended (the question alone, no options; reviewers judge the replies)"),
        text="{{ question }}",
        source=gettext_lazy("Putri et al. 2024, Section 7.1 (Multiple-Choice vs. 'Free' Generation)"),
        open_ended=True,
    ),
)

FIELDS = ("concept", "category", "question", *(f"choice_{label.lower()}" for label in LABELS))

SPEC = BenchmarkSpec(
    kind="choice",
    answers=LABELS,
    gold_keys=("author", "majority"),
    templates=TEMPLATES,
    fields=FIELDS,
    gold_key_labels={
        "author": gettext_lazy("The author's answer"),
        "majority": gettext_lazy("The answerers' majority answer"),
    },
)


def benchmark_item(record: ExportRecord, *, gold_key: str) -> BenchmarkItem | None:
    payload = record.item.payload
    choices = list(payload.get("choices") or [])
    choices += [""] * (len(LABELS) - len(choices))
    majority = (record.gold.details.get("majority") if record.gold is not None else None) or None
    gold = (payload.get("answer") or None) if gold_key == "author" else majority
    if gold not in LABELS:
        return None
    fields = {
        "concept": record.item.unit_name,
        "category": record.item.category,
        "question": payload.get("question", ""),
        **{f"choice_{label.lower()}": text for label, text in zip(LABELS, choices, strict=False)},
    }
    answers = tuple(answer for answer in ((j.value or {}).get("answer") for j in record.judgments) if answer in LABELS)
    if not answers and majority in LABELS:
        answers = (majority,)
    return BenchmarkItem(fields=fields, options=tuple(choices[: len(LABELS)]), gold=gold, human_answers=answers)
