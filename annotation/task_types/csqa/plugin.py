from typing import Any

from annotation.task_types.base import FieldChange, JudgmentInput, PayloadCheck, TaskType, register
from annotation.task_types.csqa import payload as csqa_payload
from annotation.task_types.csqa.answers import normalize_answer
from annotation.task_types.csqa.forms import CsqaAuthorForm
from annotation.task_types.csqa.payload import LABELS
from annotation.task_types.csqa.settings import SETTINGS

# The error types Putri et al. 2024 report from their QC of human-written questions.
CSQA_ERROR_TYPES = [
    ("typo", "Typo / mechanics", "Spelling, punctuation, capitalisation."),
    ("fluency", "Sentence fluency", "Unnatural or awkward wording."),
    ("structure", "Sentence structure", "Ungrammatical or confusing structure."),
    ("too_general", "Context too general", "E.g. “all over the world”: not specific to the culture."),
    ("subjective", "Subjective", "Superlatives or opinions (“the most delicious”)."),
    ("logic_not_commonsense", "Logic/causal, not commonsense", "Needs reasoning rather than shared knowledge."),
    ("equal_options", "Options of equal value", "Several options are equally good."),
    ("answer_distractor_equivalent", "Answer and distractor equivalent", "A distractor means the same as the answer."),
    ("no_valid_answer", "No valid answer", "None of the options is correct."),
    ("wrong_language", "Wrong language", "Not written in the project's language."),
    ("translation_error", "Translation error", "A translated part is wrong."),
]


@register
class CsqaTaskType(TaskType):
    name = "csqa"
    label = "Commonsense QA (question + 5 options)"
    author_template = "annotation/task_types/csqa/author_form.html"
    display_template = "annotation/task_types/csqa/item_display.html"
    answer_template = "annotation/task_types/csqa/answer_form.html"
    default_error_types = CSQA_ERROR_TYPES
    settings_spec = SETTINGS
    labels = LABELS

    def normalize_payload(self, data: dict[str, Any]) -> dict[str, Any]:
        return csqa_payload.normalize(data)

    def check_payload(self, payload: dict[str, Any], *, concept: str | None) -> PayloadCheck:
        return csqa_payload.check(payload, concept=concept)

    def form_class(self) -> type:
        return CsqaAuthorForm

    def form_initial(self, payload: dict[str, Any]) -> dict[str, Any]:
        initial: dict[str, Any] = {"question": payload.get("question", ""), "answer": payload.get("answer", "")}
        for label, text in zip(LABELS, payload.get("choices", []), strict=False):
            initial[f"choice_{label.lower()}"] = text
        return initial

    def payload_from_form(self, cleaned_data: dict[str, Any]) -> dict[str, Any]:
        return self.normalize_payload(
            {
                "question": cleaned_data.get("question", ""),
                "choices": [cleaned_data.get(f"choice_{label.lower()}", "") for label in LABELS],
                "answer": cleaned_data.get("answer", ""),
            }
        )

    def diff(self, old: dict[str, Any] | None, new: dict[str, Any]) -> list[FieldChange]:
        return csqa_payload.diff(old, new)

    def summary(self, payload: dict[str, Any]) -> str:
        return payload.get("question", "")

    def normalize_judgment(self, data: dict[str, Any]) -> JudgmentInput:
        return normalize_answer(data)

    def answer_form_class(self) -> type:
        # Imported here: the form module reads the answering selectors, which need the app registry.
        from annotation.forms.judging import CsqaAnswerForm

        return CsqaAnswerForm
