"""What a csqa answerer sees and fills in: the question and options (never the author's answer), the
answering form, and their own earlier answer. The form only shapes input; normalize_answer (called by
the core's judgment_record) decides what is valid, so the page and the API refuse the same things."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy
from django.utils.translation import gettext_lazy as _

from annotation.task_types.base import JudgmentInput
from annotation.task_types.csqa.answers import MAX_COMMENT
from annotation.task_types.csqa.payload import LABELS

LABEL_CHOICES = [(label, label) for label in LABELS]


@dataclass(frozen=True)
class AnswerQuestion:
    """What an answerer is shown: no author, no answer, no other judgment."""

    item_id: int
    category: str
    question: str
    choices: list[str]
    is_own: bool


@dataclass(frozen=True)
class OwnAnswer:
    answer: str | None
    uncertain: bool
    question_ambiguous: bool
    option_ambiguous: list[bool]
    comment: str


def judge_view(payload: dict[str, Any]) -> dict[str, Any]:
    choices = payload.get("choices")
    return {
        "question": payload.get("question") or "",
        "choices": [str(c) for c in choices] if isinstance(choices, list) else [],
    }


def own_answer(judgment: JudgmentInput | None) -> OwnAnswer | None:
    if judgment is None:
        return None
    flags = judgment.flags or {}
    options = flags.get("option_ambiguous") or []
    return OwnAnswer(
        answer=(judgment.value or {}).get("answer"),
        uncertain=flags.get("uncertain") is True,
        question_ambiguous=flags.get("question_ambiguous") is True,
        option_ambiguous=[v is True for v in options] if len(options) == len(LABELS) else [False] * len(LABELS),
        comment=judgment.comment or "",
    )


class CsqaAnswerForm(forms.Form):
    # Not required here: the service's message ("Choose one of the options A-E.") is the one shown.
    answer = forms.ChoiceField(choices=LABEL_CHOICES, required=False, widget=forms.RadioSelect)
    uncertain = forms.BooleanField(
        required=False, label=_("Unsure: I'm not sure my answer is the one most people would give")
    )
    question_ambiguous = forms.BooleanField(
        required=False, label=_("Ambiguous: I could not pick one answer with confidence")
    )
    option_ambiguous = forms.MultipleChoiceField(
        choices=LABEL_CHOICES,
        required=False,
        widget=forms.CheckboxSelectMultiple,
        label=gettext_lazy("Ambiguous options"),
    )
    comment = forms.CharField(
        required=False,
        max_length=MAX_COMMENT,
        label=gettext_lazy("Reason (optional)"),
        widget=forms.Textarea(attrs={"dir": "auto", "rows": 3, "autocomplete": "off"}),
    )

    @staticmethod
    def initial_for(previous: OwnAnswer | None) -> dict[str, Any]:
        if previous is None:
            return {}
        return {
            "answer": previous.answer or "",
            "uncertain": previous.uncertain,
            "question_ambiguous": previous.question_ambiguous,
            "option_ambiguous": [
                label for label, flagged in zip(LABELS, previous.option_ambiguous, strict=True) if flagged
            ],
            "comment": previous.comment,
        }

    def judgment_data(self) -> dict[str, Any]:
        data = self.cleaned_data
        flagged = set(data.get("option_ambiguous") or [])
        return {
            "answer": data.get("answer") or "",
            "uncertain": bool(data.get("uncertain")),
            "question_ambiguous": bool(data.get("question_ambiguous")),
            "option_ambiguous": [label in flagged for label in LABELS],
            "comment": data.get("comment") or "",
        }
