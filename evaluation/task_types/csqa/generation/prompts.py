"""The generation prompt: the paper's template by default, editable per project, rendered in the sandbox."""

from __future__ import annotations

from evaluation import templating
from evaluation.task_types.csqa.generation.batching import Batch

# Putri et al. 2024, Appendix A.1.3 "Data Generation Prompt", word for word. The paper's placeholders
# {LANGUAGE}, [QUESTION CONCEPTS}] (sic) and {CATEGORY} are our {{ language }}, [{{ concepts }}] and
# {{ category }}; its line breaks are the PDF's column wraps, so the instruction is one paragraph.
DEFAULT_TEMPLATE = (
    "Given a list of {{ language }} concepts [{{ concepts }}], create one {{ language }} commonsense QA "
    'data with topic "{{ category }}" for each concept, that consists of three components: "question", '
    '"choices", and "answer_creator". The "question" must contains the concept explicitly. The "choices" '
    'consist of 5 different choices marked A to E where one should be the "answer_creator". All data '
    "should be in {{ language }}, return only your answer in JSON data format, and add the concept of "
    'the data as "question_concepts".\n'
    "JSON Data:"
)
FIELDS = ("language", "category", "concepts", "concept_count")
REQUIRED_FIELDS = ("concepts",)


def prompt_fields(batch: Batch, *, language: str) -> dict[str, object]:
    return {
        "language": language,
        "category": batch.category,
        "concepts": [c.name for c in batch.concepts],
        "concept_count": len(batch.concepts),
    }


def render_prompt(batch: Batch, *, language: str, template: str = DEFAULT_TEMPLATE) -> str:
    return templating.render(template, prompt_fields(batch, language=language))


def messages(batch: Batch, *, language: str, template: str = DEFAULT_TEMPLATE) -> list[dict[str, str]]:
    """The chat messages of one call. The paper sends the prompt as a single user message."""
    return [{"role": "user", "content": render_prompt(batch, language=language, template=template)}]


def validate_template(template: str) -> None:
    templating.validate_template(template, allowed=FIELDS, required=REQUIRED_FIELDS)
