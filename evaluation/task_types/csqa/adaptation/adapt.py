"""LLM_ADAPT step 2: the "adapt all" and "adapt name" prompts (Putri et al. 2024, Appendix A.1.2) and
their replies read into csqa payloads.

"Adapt all" makes concept, question and options locally relevant and keeps the concept in the
question; "adapt name" swaps person names only. The paper's text is the default with "Indonesia" and
"Indonesian" as {{ location }} and {{ language }}, so a project can target West Java / Sundanese.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from annotation.errors import InvalidInput
from annotation.task_types.csqa import payload as csqa_payload
from annotation.task_types.csqa.morphology import mentions_concept
from evaluation import replies, templating
from evaluation.task_types.csqa.generation.records import candidate

LABELS = ("A", "B", "C", "D", "E")

# Appendix A.1.2 "Adapt All Prompt", word for word ({QUESTION}, {QUESTION CONCEPT}, {CHOICES},
# {ANSWER} -> {{ question }}, {{ concept }}, {{ choices }} (one "A. text" line per option), {{ answer }}).
ADAPT_ALL_TEMPLATE = (
    "Change the given data to make it relevant to {{ location }} in any ways. Make all elements relevant "
    "to each other, and the concept always appear explicitly in the question. Return in {{ language }} "
    "language with JSON format where question is string, concept is string, options is dictionary where "
    "label is the keys and option text is the values, and question_answer is string contain one label "
    "from the options.\n"
    "Data:\n"
    "###\n"
    "Question: {{ question }}\n"
    "Concept: {{ concept }}\n"
    "Options:\n"
    "{{ choices }}\n"
    "Question Answer: {{ answer }}\n"
    "###"
)
# Appendix A.1.2 "Adapt Name Prompt", word for word.
ADAPT_NAME_TEMPLATE = (
    "Change all names in the given question to {{ language }} names. Change only the names, keep all "
    "other phrases in the question the same and keep it all in {{ language }}.\n"
    "Question: {{ question }}\n"
    "Changed Question:"
)
DEFAULT_LOCATION = "Indonesia"
DEFAULT_LANGUAGE = "Indonesian"

# Reasons an adaptation is not kept.
UNREADABLE = "unreadable"
INVALID = "invalid"
CONCEPT_MISSING = "concept_missing"


def format_choices(choices: Sequence[str]) -> str:
    return "\n".join(f"{label}. {text}" for label, text in zip(LABELS, choices, strict=False))


def adapt_all_prompt(
    *,
    question: str,
    concept: str,
    choices: Sequence[str],
    answer: str,
    location: str = DEFAULT_LOCATION,
    language: str = DEFAULT_LANGUAGE,
    template: str = ADAPT_ALL_TEMPLATE,
) -> str:
    fields = {
        "question": question,
        "concept": concept,
        "choices": format_choices(choices),
        "answer": answer,
        "location": location,
        "language": language,
    }
    return templating.render(template, fields)


def adapt_name_prompt(*, question: str, language: str = DEFAULT_LANGUAGE, template: str = ADAPT_NAME_TEMPLATE) -> str:
    return templating.render(template, {"question": question, "language": language})


def as_messages(prompt: str) -> list[dict[str, str]]:
    return [{"role": "user", "content": prompt}]


@dataclass
class Adapted:
    ok: bool
    payload: dict[str, Any] | None = None
    concept: str = ""
    reason: str = ""
    detail: str = ""
    problems: list[str] = field(default_factory=list)


def parse_adapt_all(reply: str) -> Adapted:
    """The adapted item, validated by csqa, with its concept in the question; else why not."""
    extracted = replies.json_values(reply)
    rows = [r for r, _ in replies.records(extracted.values, is_record=lambda v: "question" in v)]
    if not rows:
        return Adapted(False, reason=UNREADABLE, detail=" ".join(extracted.problems) or "No item in the reply.")
    cand = candidate(rows[0])
    concept = cand.concept or ""
    try:
        payload = csqa_payload.normalize(cand.data)
    except InvalidInput as error:
        return Adapted(False, concept=concept, reason=INVALID, detail=error.message, problems=cand.problems)
    checked = csqa_payload.check(payload, concept=None)
    if checked.errors:
        detail = " ".join(m for ms in checked.errors.values() for m in ms)
        return Adapted(False, payload=payload, concept=concept, reason=INVALID, detail=detail, problems=cand.problems)
    if not concept or not mentions_concept(payload["question"], concept):
        return Adapted(
            False,
            payload=payload,
            concept=concept,
            reason=CONCEPT_MISSING,
            detail=f"The question does not contain the concept “{concept}”." if concept else "No concept given.",
            problems=cand.problems,
        )
    return Adapted(True, payload=payload, concept=concept, problems=cand.problems + extracted.problems)


_LABEL = re.compile(r"^\s*(?:changed question|question)\s*:\s*", re.IGNORECASE)


def parse_adapt_name(reply: str) -> str | None:
    """The changed question: the first non-empty line, without a "Changed Question:" label or quotes."""
    for line in (reply or "").splitlines():
        text = _LABEL.sub("", line).strip().strip('"“”').strip()
        if text:
            return text
    return None
