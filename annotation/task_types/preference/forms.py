"""Forms of the preference pages. They only shape input: payload.check and judging.normalize_judgment /
complete_judgment decide what is valid, so the pages refuse what the API refuses."""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy

from annotation import limits
from annotation.task_types.preference.payload import INPUT, MAX_RESPONSES, PROMPT
from annotation.task_types.preference.rubrics import CRITERIA

_TEXT = {"dir": "auto", "autocomplete": "off"}
_LIMIT = {"max_length": limits.TOO_LONG}
POSITIONS = [(str(n), str(n)) for n in range(1, MAX_RESPONSES + 1)]


class PromptAuthorForm(forms.Form):
    """A prompt for the unit's category, with an optional input text (the article, the code)."""

    prompt = forms.CharField(
        max_length=PROMPT,
        required=False,
        error_messages=_LIMIT,
        widget=forms.Textarea(attrs={**_TEXT, "rows": 5, "autofocus": True}),
    )
    input = forms.CharField(
        label=gettext_lazy("Input text (optional)"),
        max_length=INPUT,
        required=False,
        error_messages=_LIMIT,
        widget=forms.Textarea(attrs={**_TEXT, "rows": 6}),
        help_text=gettext_lazy(
            "The text the prompt works on: an article to summarise, code to fix, a passage to translate."
        ),
    )
    justification = forms.CharField(required=False, max_length=limits.JUSTIFICATION, widget=forms.HiddenInput)


class RatingForm(forms.Form):
    """One rater's ratings of a prompt's responses, by shown position: relevance_N and fluency_N (1-5) for
    N = 1..responses, and the best position. The rating inputs are drawn by the template from the judge
    view (their number is the prompt's); judgment_data reads them from the posted data."""

    best = forms.ChoiceField(choices=POSITIONS, required=False, widget=forms.RadioSelect)
    comment = forms.CharField(
        required=False,
        max_length=limits.COMMENT,
        label=gettext_lazy("Comment (optional)"),
        widget=forms.Textarea(attrs={**_TEXT, "rows": 2}),
    )

    @staticmethod
    def initial_for(previous: Any) -> dict[str, Any]:
        """`previous` is the rater's own judgment as they are shown it (judging.own_judgment): by position."""
        if previous is None:
            return {}
        shown = previous.value or {}
        return {"best": str(shown.get("best") or ""), "comment": previous.comment, "ratings": shown.get("ratings", [])}

    def chosen_json(self) -> str:
        """What is already chosen (posted or stored), by position, for the page's script to show."""
        if self.is_bound:
            ratings = []
            for n in range(1, MAX_RESPONSES + 1):
                row = {c: self.data.get(f"{c}_{n}") for c in CRITERIA}
                if not any(row.values()):
                    break
                ratings.append(row)
            return json.dumps({"ratings": ratings, "best": self.data.get("best") or ""})
        return json.dumps({"ratings": self.initial.get("ratings", []), "best": self.initial.get("best", "")})

    def judgment_data(self) -> dict[str, Any]:
        ratings = []
        for n in range(1, MAX_RESPONSES + 1):
            row = {c: self.data.get(f"{c}_{n}", "") for c in CRITERIA}
            if f"relevance_{n}" not in self.data and f"fluency_{n}" not in self.data:
                break
            ratings.append(row)
        return {
            "ratings": ratings,
            "best": self.cleaned_data.get("best") or "",
            "comment": self.cleaned_data.get("comment") or "",
        }
