"""The screening setup's practice and pilot items as forms (question, options, right option, feedback).

The items are still stored as JSON on ScreeningSetup; these forms only shape what an admin types, and
`screening_configure` checks it."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy

from annotation import limits

_TEXT = {"dir": "auto", "autocomplete": "off"}
# Blank rows an admin can fill below the saved items (more come with each save).
EXTRA_ROWS = 2


class ScreeningItemForm(forms.Form):
    question = forms.CharField(
        label=gettext_lazy("Question"), required=False, max_length=limits.QUESTION, widget=forms.TextInput(_TEXT)
    )
    options = forms.CharField(
        label=gettext_lazy("Options, one per line"),
        required=False,
        widget=forms.Textarea({**_TEXT, "rows": 4}),
    )
    answer = forms.IntegerField(
        label=gettext_lazy("Number of the right option"),
        required=False,
        min_value=1,
        max_value=10,
        widget=forms.NumberInput({"class": "short"}),
    )
    feedback = forms.CharField(
        label=gettext_lazy("Feedback shown after the answer"),
        required=False,
        max_length=limits.FEEDBACK,
        widget=forms.TextInput(_TEXT),
    )

    def to_item(self) -> dict[str, Any] | None:
        """The stored shape ({"question", "options", "answer": 0-based index, "feedback"}); None for a blank row."""
        data = self.cleaned_data
        options = [line.strip() for line in (data.get("options") or "").splitlines() if line.strip()]
        if not (data.get("question") or "").strip() and not options and not data.get("feedback"):
            return None
        answer = data.get("answer")
        return {
            "question": data.get("question") or "",
            "options": options,
            "answer": answer - 1 if isinstance(answer, int) else None,
            "feedback": data.get("feedback") or "",
        }


ScreeningItemFormSet = forms.formset_factory(
    ScreeningItemForm, extra=EXTRA_ROWS, max_num=50, validate_max=True, absolute_max=60
)


def initial_rows(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Saved items as the formset's initial rows (the right option counted from 1, as the form shows it)."""
    return [
        {
            "question": item["question"],
            "options": "\n".join(item["options"]),
            "answer": item["answer"] + 1,
            "feedback": item.get("feedback", ""),
        }
        for item in items
    ]


def items_of(formset: forms.BaseFormSet) -> list[dict[str, Any]]:
    """The non-blank rows of a valid formset, in order."""
    return [item for item in (form.to_item() for form in formset.forms) if item is not None]
