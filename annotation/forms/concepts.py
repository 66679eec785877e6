"""Forms of the catalog page: search the concepts, edit one."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from annotation import limits

_TEXT = {"dir": "auto", "autocomplete": "off"}


class ConceptSearchForm(forms.Form):
    q = forms.CharField(label=_("Search"), required=False, max_length=200, widget=forms.TextInput(attrs=_TEXT))
    category = forms.TypedChoiceField(label=_("Category"), required=False, coerce=int, empty_value=None)
    state = forms.ChoiceField(
        label=_("Show"),
        required=False,
        choices=[("active", _("Active")), ("retired", _("Retired")), ("all", _("All"))],
    )

    def __init__(self, *args, categories=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["category"].choices = [("", _("All categories"))] + [(c.pk, c.name) for c in categories]


class ConceptEditForm(forms.Form):
    name = forms.CharField(label=_("Concept"), max_length=limits.CONCEPT_NAME, widget=forms.TextInput(attrs=_TEXT))
    category = forms.CharField(
        label=_("Category"),
        max_length=limits.CATEGORY_NAME,
        help_text=_("An existing category's name, or a new one."),
        widget=forms.TextInput(attrs=_TEXT),
    )
