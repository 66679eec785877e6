"""The reviewer's countries: ticked from the project's countries, never typed."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy


class ReviewCountriesForm(forms.Form):
    countries = forms.MultipleChoiceField(
        label=gettext_lazy("Countries"),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        error_messages={"invalid_choice": gettext_lazy("%(value)s is not one of this project's countries.")},
    )

    def __init__(self, *args, choices: list[str], **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["countries"].choices = [(c, c) for c in choices]
