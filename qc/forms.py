"""Forms of the QC pages."""

from __future__ import annotations

from django import forms

from annotation import limits
from annotation.models import Project
from qc.models import ErrorType, Review


class ReviewForm(forms.Form):
    # The version the reviewer looked at: a decision on a stale version is refused as a conflict.
    version_id = forms.IntegerField(widget=forms.HiddenInput)
    decision = forms.ChoiceField(choices=Review.Decision.choices, widget=forms.RadioSelect)
    error_types = forms.MultipleChoiceField(
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text="Required when you request a revision.",
    )
    feedback = forms.CharField(
        required=False,
        max_length=limits.FEEDBACK,
        error_messages={"max_length": limits.TOO_LONG},  # the service's message: page and API agree
        widget=forms.Textarea(attrs={"dir": "auto", "rows": 4}),
        help_text="What should the author change? Required for a revision request or a rejection.",
    )

    def __init__(self, *args, project: Project, **kwargs):
        super().__init__(*args, **kwargs)
        self.taxonomy = list(ErrorType.objects.filter(project=project).order_by("position", "code"))
        self.fields["error_types"].choices = [(e.code, e.label) for e in self.taxonomy]
