"""The author's form and the judge's form. Field shapes only: the rules live in payload.check and
judging.normalize_judgment, so the pages and the API refuse the same things."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy

from annotation import limits
from tests.tutorial_task_type.payload import LABEL_NAMES, LABELS, TEXT, normalize

_TEXT = {"dir": "auto", "autocomplete": "off"}
_LIMIT = {"max_length": limits.TOO_LONG}
_CHOICES = [(label, LABEL_NAMES[label]) for label in LABELS]


class SentimentAuthorForm(forms.Form):
    text = forms.CharField(
        label=gettext_lazy("Sentence"),
        required=False,
        max_length=TEXT,
        error_messages=_LIMIT,
        widget=forms.Textarea(attrs={**_TEXT, "rows": 3, "autofocus": True}),
    )
    label = forms.ChoiceField(
        label=gettext_lazy("The sentiment you meant (optional)"),
        required=False,
        choices=_CHOICES,
        widget=forms.RadioSelect,
    )


def form_initial(payload: dict[str, Any]) -> dict[str, Any]:
    """The author form's initial data from a saved payload (its fields are the payload's keys)."""
    return {"text": payload.get("text", ""), "label": payload.get("label", "")}


def payload_from_form(cleaned_data: dict[str, Any]) -> dict[str, Any]:
    return normalize({"text": cleaned_data.get("text") or "", "label": cleaned_data.get("label") or ""})


class SentimentJudgeForm(forms.Form):
    """The core's judging page builds it as form_class(POST, initial=form_class.initial_for(own judgment))
    and saves form.judgment_data() through normalize_judgment."""

    label = forms.ChoiceField(
        label=gettext_lazy("Sentiment"), required=False, choices=_CHOICES, widget=forms.RadioSelect
    )
    comment = forms.CharField(
        label=gettext_lazy("Comment (optional)"),
        required=False,
        max_length=limits.COMMENT,
        error_messages=_LIMIT,
        widget=forms.Textarea(attrs={**_TEXT, "rows": 2}),
    )

    @staticmethod
    def initial_for(previous: Any) -> dict[str, Any]:
        """The judge's own earlier judgment (a JudgmentInput, or None) as initial data."""
        if previous is None:
            return {}
        return {"label": previous.value.get("label", ""), "comment": previous.comment}

    def judgment_data(self) -> dict[str, Any]:
        return {"label": self.cleaned_data.get("label") or "", "comment": self.cleaned_data.get("comment") or ""}
