"""The form of the preferences page: interface language and time zone."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from annotation.services.preferences import language_choices, time_zone_names


class PreferencesForm(forms.Form):
    language = forms.ChoiceField(
        label=_("Interface language"),
        required=False,
        help_text=_("The language of menus, buttons and messages. Project content keeps its own language."),
    )
    time_zone = forms.ChoiceField(
        label=_("Time zone"),
        required=False,
        help_text=_("Dates and times are shown in this zone."),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["language"].choices = [("", _("Same as my browser"))] + language_choices()
        self.fields["time_zone"].choices = [("", _("UTC (default)"))] + [(n, n) for n in time_zone_names()]
