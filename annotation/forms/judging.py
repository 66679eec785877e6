"""The answering form of csqa items. It only shapes input; the task type's normalize_answer (called by
judgment_record) decides what is valid, so the page and the API refuse the same things."""

from __future__ import annotations

from typing import Any

from django import forms

from annotation.selectors.judgments import OwnAnswer
from annotation.task_types.csqa.answers import MAX_COMMENT
from annotation.task_types.csqa.payload import LABELS

LABEL_CHOICES = [(label, label) for label in LABELS]


class CsqaAnswerForm(forms.Form):
    # Not required here: the service's message ("Choose one of the options A-E.") is the one shown.
    answer = forms.ChoiceField(choices=LABEL_CHOICES, required=False, widget=forms.RadioSelect)
    uncertain = forms.BooleanField(required=False, label="I'm not sure of my answer")
    question_ambiguous = forms.BooleanField(required=False, label="The question is ambiguous")
    option_ambiguous = forms.MultipleChoiceField(
        choices=LABEL_CHOICES, required=False, widget=forms.CheckboxSelectMultiple, label="Ambiguous options"
    )
    comment = forms.CharField(
        required=False,
        max_length=MAX_COMMENT,
        label="Reason (optional)",
        widget=forms.Textarea(attrs={"dir": "auto", "rows": 3, "autocomplete": "off"}),
    )

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


def answer_initial(previous: OwnAnswer | None) -> dict[str, Any]:
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
