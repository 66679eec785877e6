from django import forms
from django.utils.translation import gettext_lazy

from annotation import limits
from annotation.task_types.sentence_completion.payload import LETTERS
from annotation.task_types.sentence_completion.places import COUNTRIES, REGION_OF

_TEXT = {"dir": "auto", "autocomplete": "off"}
_LIMIT = {"max_length": limits.TOO_LONG}
YES_NO = [("yes", "Yes / نعم"), ("no", "No / لا")]


def _completion(letter: str) -> forms.CharField:
    return forms.CharField(
        label=letter,
        required=False,
        max_length=limits.OPTION,
        error_messages=_LIMIT,
        widget=forms.TextInput(attrs=_TEXT),
    )


class CompletionAuthorForm(forms.Form):
    """Field-level shape only; the content rules live in payload.check so the API applies them too."""

    premise = forms.CharField(
        required=False,
        max_length=limits.QUESTION,
        error_messages=_LIMIT,
        widget=forms.Textarea(attrs={**_TEXT, "rows": 2, "autofocus": True}),
    )
    completion_a = _completion("A")
    completion_b = _completion("B")
    completion_c = _completion("C")
    answer = forms.ChoiceField(required=False, choices=[(c, c) for c in LETTERS], widget=forms.RadioSelect)
    country = forms.ChoiceField(
        required=False,
        choices=[("", "—")] + [(c, f"{c} ({REGION_OF[c]})") for c in COUNTRIES],
    )
    # Choices are the project's catalog (`catalog` below); the service refuses a pair not in it.
    topic = forms.CharField(required=False, max_length=200, error_messages=_LIMIT, widget=forms.Select)
    subtopic = forms.CharField(required=False, max_length=300, error_messages=_LIMIT, widget=forms.Select)
    relevant_to_this_country = forms.ChoiceField(
        required=False, choices=YES_NO, widget=forms.RadioSelect, label=gettext_lazy("Is this relevant to my country?")
    )
    relevant_to_other_countries = forms.ChoiceField(
        required=False,
        choices=YES_NO,
        widget=forms.RadioSelect,
        label=gettext_lazy("Is this relevant to other Arab countries?"),
    )
    justification = forms.CharField(
        required=False,
        max_length=limits.JUSTIFICATION,
        error_messages=_LIMIT,
        widget=forms.Textarea(attrs={**_TEXT, "rows": 2}),
        help_text=gettext_lazy("Only needed to submit a completion that repeats the premise."),
    )

    def __init__(self, *args, catalog: dict[str, list[str]] | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.catalog = catalog or {}
        self.fields["topic"].widget.choices = [("", "—"), *((t, t) for t in self.catalog)]
        self.fields["subtopic"].widget.choices = [("", "—")] + [
            (s, s) for subtopics in self.catalog.values() for s in subtopics
        ]

    def subtopic_options(self) -> list[tuple[str, str, bool]]:
        """(topic, subtopic, selected) for every subtopic of the catalog: the template tags each option
        with its topic so the page shows only the chosen topic's subtopics. A topic with one subtopic has
        it preselected (static/js/task_types/sentence_completion/topics.js does the same on a change)."""
        topic, subtopic = self["topic"].value() or "", self["subtopic"].value() or ""
        if topic and not subtopic and len(self.catalog.get(topic, [])) == 1:
            subtopic = self.catalog[topic][0]
        return [(t, s, t == topic and s == subtopic) for t, subtopics in self.catalog.items() for s in subtopics]

    def completion_fields(self):
        """(letter, text field, radio option) per completion."""
        radios = list(self["answer"])
        return [(letter, self[f"completion_{letter.lower()}"], radios[i]) for i, letter in enumerate(LETTERS)]
