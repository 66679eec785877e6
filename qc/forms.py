"""Forms of the QC pages: the review decision, imports and exports. They shape input; the services
decide what is valid."""

from __future__ import annotations

import re

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from annotation import limits
from annotation.models import Project
from qc.models import ErrorType, ExportRun, Review

_SEPARATORS = re.compile(r"[\n;]+")


# One key per error type (a project has 11 by default, more when an admin adds some): digits first, then
# letters no other control of the review page uses (A, R, X decide; N, Q, U serve other pages).
ERROR_TYPE_KEYS = tuple("1234567890") + tuple("wetyiopsdfhjklzcvbm")


class ReviewForm(forms.Form):
    # The version the reviewer looked at: a decision on a stale version is refused as a conflict.
    version_id = forms.IntegerField(widget=forms.HiddenInput)
    decision = forms.ChoiceField(label=_("Decision"), choices=Review.Decision.choices, widget=forms.RadioSelect)
    error_types = forms.MultipleChoiceField(
        label=_("Error types"),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_("Required when you request a revision."),
    )
    feedback = forms.CharField(
        label=_("Feedback"),
        required=False,
        max_length=limits.FEEDBACK,
        error_messages={"max_length": limits.TOO_LONG},  # the service's message: page and API agree
        widget=forms.Textarea(attrs={"dir": "auto", "rows": 4}),
        help_text=_("What should the author change? Required for a revision request or a rejection."),
    )

    def __init__(self, *args, project: Project, **kwargs):
        super().__init__(*args, **kwargs)
        self.taxonomy = list(ErrorType.objects.filter(project=project).order_by("position", "code"))
        self.fields["error_types"].choices = [(e.code, e.label_shown) for e in self.taxonomy]
        # (error type, its key or "" past the last key), in the taxonomy's order.
        keys = [*ERROR_TYPE_KEYS, *[""] * max(0, len(self.taxonomy) - len(ERROR_TYPE_KEYS))]
        self.keyed_taxonomy = list(zip(self.taxonomy, keys, strict=False))


def parse_regions(text: str) -> dict[str, str]:
    """ "W1=West Java" per line (or separated by ";", or by "," when on one line) -> {"W1": "West Java"}."""
    text = text.strip()
    if not text:
        return {}
    parts = _SEPARATORS.split(text) if _SEPARATORS.search(text) else text.split(",")
    regions: dict[str, str] = {}
    for part in filter(None, (p.strip() for p in parts)):
        code, sep, region = part.partition("=")
        if not sep or not code.strip() or not region.strip():
            raise forms.ValidationError(gettext("“%(part)s” is not CODE=REGION (e.g. W1=West Java).") % {"part": part})
        regions[code.strip()] = region.strip()
    return regions


class ItemsImportForm(forms.Form):
    """The file import page: the format is one of those the project's task type registers."""

    file = forms.FileField(
        label=_("File"), help_text=_("The released file (JSON array or JSON Lines, as the format says).")
    )
    format = forms.ChoiceField(
        choices=[], required=False, label=_("Format"), help_text=_("Left empty: the first one listed.")
    )
    language = forms.CharField(
        max_length=20, label=_("Language"), help_text=_("Language code of the file, e.g. id or su.")
    )
    annotator_regions = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 3, "dir": "auto", "autocomplete": "off"}),
        label=_("Annotator regions"),
        help_text=_("Optional, one per line: W1=West Java."),
    )

    def __init__(self, *args, formats: list[tuple[str, str]], **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["format"].choices = formats
        self.fields["format"].initial = formats[0][0] if formats else None

    def clean_file(self):
        upload = self.cleaned_data["file"]
        problem = limits.upload_size_problem(upload.size)
        if problem:
            raise forms.ValidationError(problem)
        return upload

    def clean_format(self) -> str:
        return self.cleaned_data.get("format") or (self.fields["format"].choices or [("", "")])[0][0]

    def clean_annotator_regions(self) -> dict[str, str]:
        return parse_regions(self.cleaned_data.get("annotator_regions") or "")


class ExportForm(forms.Form):
    format = forms.ChoiceField(label=_("Format"), choices=ExportRun.Format.choices)
