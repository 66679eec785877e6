from django import forms
from django.utils.translation import gettext_lazy

from annotation import limits
from annotation.task_types.csqa.payload import LABELS

_TEXT = {"dir": "auto", "autocomplete": "off"}
# The service's limits and message, so the page refuses exactly what the API refuses.
_LIMIT = {"max_length": limits.TOO_LONG}


class CsqaAuthorForm(forms.Form):
    """Field-level shape only; the content rules live in payload.check so the API applies them too."""

    question = forms.CharField(
        required=False,
        max_length=limits.QUESTION,
        error_messages=_LIMIT,
        widget=forms.Textarea(attrs={**_TEXT, "rows": 3, "autofocus": True}),
    )
    choice_a = forms.CharField(
        label="A", required=False, max_length=limits.OPTION, error_messages=_LIMIT, widget=forms.TextInput(attrs=_TEXT)
    )
    choice_b = forms.CharField(
        label="B", required=False, max_length=limits.OPTION, error_messages=_LIMIT, widget=forms.TextInput(attrs=_TEXT)
    )
    choice_c = forms.CharField(
        label="C", required=False, max_length=limits.OPTION, error_messages=_LIMIT, widget=forms.TextInput(attrs=_TEXT)
    )
    choice_d = forms.CharField(
        label="D", required=False, max_length=limits.OPTION, error_messages=_LIMIT, widget=forms.TextInput(attrs=_TEXT)
    )
    choice_e = forms.CharField(
        label="E", required=False, max_length=limits.OPTION, error_messages=_LIMIT, widget=forms.TextInput(attrs=_TEXT)
    )
    answer = forms.ChoiceField(required=False, choices=[(label, label) for label in LABELS], widget=forms.RadioSelect)
    justification = forms.CharField(
        required=False,
        max_length=limits.JUSTIFICATION,
        error_messages=_LIMIT,
        widget=forms.Textarea(attrs={**_TEXT, "rows": 2}),
        help_text=gettext_lazy("Only needed to submit a question that does not contain the concept."),
    )

    def choice_fields(self):
        """(label, text field, radio option) per option, for a row-per-option layout."""
        radios = list(self["answer"])
        return [(label, self[f"choice_{label.lower()}"], radios[i]) for i, label in enumerate(LABELS)]
