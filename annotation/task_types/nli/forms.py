"""Forms of the nli pages. They only shape input: payload.normalize / check_unit and
judging.normalize_judgment decide what is valid, so the pages refuse what the API refuses."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext, gettext_lazy
from django.utils.translation import gettext_lazy as _

from annotation import limits
from annotation.task_types.nli.checks import HYPOTHESES_PER_PREMISE
from annotation.task_types.nli.labels import CODES, LABELS, PHENOMENA
from annotation.task_types.nli.payload import HYPOTHESIS, field_name, normalize

_TEXT = {"dir": "auto", "autocomplete": "off"}
_LIMIT = {"max_length": limits.TOO_LONG}
# Each option starts with its label's key letter, so a focused select takes e / n / c from the keyboard.
LABEL_CHOICES = [("", "—"), *((label, label) for label in LABELS)]
TAG_CHOICES = [(tag, tag) for tag in PHENOMENA]


class NliAuthorForm(forms.Form):
    """Six rows (hypothesis_N, label_N, tags_N for N = 1..6) and a justification for warnings."""

    justification = forms.CharField(
        required=False,
        max_length=limits.JUSTIFICATION,
        error_messages=_LIMIT,
        widget=forms.Textarea(attrs={**_TEXT, "rows": 2}),
        help_text=gettext_lazy("Only needed to submit despite a warning (e.g. no keyword shared with the premise)."),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for index in range(HYPOTHESES_PER_PREMISE):
            # No autofocus: on a phone it scrolls the premise away and opens the keyboard over it;
            # static/js/task_types/nli/author.js focuses the first row where there is a keyboard.
            attrs = {**_TEXT, "rows": 2}
            self.fields[field_name("hypothesis", index)] = forms.CharField(
                label=gettext("Hypothesis %(index___1)s") % {"index___1": index + 1},
                required=False,
                max_length=HYPOTHESIS,
                error_messages=_LIMIT,
                widget=forms.Textarea(attrs=attrs),
            )
            self.fields[field_name("label", index)] = forms.ChoiceField(
                label=gettext("Label"), required=False, choices=LABEL_CHOICES
            )
            self.fields[field_name("tags", index)] = forms.MultipleChoiceField(
                label=gettext("Phenomena"), required=False, choices=TAG_CHOICES, widget=forms.CheckboxSelectMultiple
            )

    # Table 13's definitions, shown as help beside the tags in an expert project.
    phenomena = [(tag, p.name, p.help) for tag, p in PHENOMENA.items()]

    def rows(self) -> list[dict[str, Any]]:
        """One dict per hypothesis for the template: its number, bound fields, and (tag box, help) pairs."""
        rows = []
        for index in range(HYPOTHESES_PER_PREMISE):
            tags = self[field_name("tags", index)]
            rows.append(
                {
                    "number": index + 1,
                    "hypothesis": self[field_name("hypothesis", index)],
                    "label": self[field_name("label", index)],
                    "tags": tags,
                    "tag_choices": [
                        (box, PHENOMENA[box.data["value"]].name, PHENOMENA[box.data["value"]].help)
                        for box in tags.subwidgets
                    ],
                }
            )
        return rows


def author_initial(payloads: list[dict[str, Any]]) -> dict[str, Any]:
    initial: dict[str, Any] = {}
    for index, payload in enumerate(payloads[:HYPOTHESES_PER_PREMISE]):
        initial[field_name("hypothesis", index)] = payload.get("hypothesis", "")
        initial[field_name("label", index)] = payload.get("label", "")
        initial[field_name("tags", index)] = list(payload.get("tags") or [])
    return initial


def item_initial(payload: dict[str, Any]) -> dict[str, Any]:
    """The author form's initial data for one hypothesis (a reviewer's edit of one item)."""
    return author_initial([payload])


def item_payload(cleaned_data: dict[str, Any]) -> dict[str, Any]:
    """The one hypothesis a reviewer's edit form holds (the form's first row)."""
    return normalize(author_payloads(cleaned_data)[0])


def author_payloads(cleaned_data: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        {
            "hypothesis": cleaned_data.get(field_name("hypothesis", index), ""),
            "label": cleaned_data.get(field_name("label", index), ""),
            "tags": list(cleaned_data.get(field_name("tags", index)) or []),
        }
        for index in range(HYPOTHESES_PER_PREMISE)
    ]


class NliValidationForm(forms.Form):
    """A validator's label for one pair; may flag an error and propose a corrected hypothesis."""

    label = forms.ChoiceField(
        choices=[(label, f"{label} ({CODES[label]})") for label in LABELS], required=False, widget=forms.RadioSelect
    )
    error = forms.BooleanField(
        required=False, label=_("Error: the pair is ungrammatical, incomplete or badly punctuated")
    )
    correction = forms.CharField(
        required=False,
        max_length=HYPOTHESIS,
        label=gettext_lazy("Corrected hypothesis (optional; sent to the reviewer, it does not replace the text)"),
        widget=forms.Textarea(attrs={**_TEXT, "rows": 2}),
    )
    comment = forms.CharField(
        required=False,
        max_length=limits.COMMENT,
        label=gettext_lazy("Comment (optional)"),
        widget=forms.Textarea(attrs={**_TEXT, "rows": 2}),
    )

    @staticmethod
    def initial_for(previous: Any) -> dict[str, Any]:
        """The validator's own earlier judgment (a JudgmentInput), to change it; {} when there is none."""
        if previous is None:
            return {}
        return {
            "label": (previous.value or {}).get("label", ""),
            "error": bool((previous.flags or {}).get("error")),
            "correction": (previous.flags or {}).get("correction", ""),
            "comment": previous.comment,
        }

    def judgment_data(self) -> dict[str, Any]:
        data = self.cleaned_data
        return {
            "label": data.get("label") or "",
            "error": bool(data.get("error")),
            "correction": data.get("correction") or "",
            "comment": data.get("comment") or "",
        }
