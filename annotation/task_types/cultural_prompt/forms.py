"""Forms of the cultural_prompt pages. They only shape input: payload.normalize / check and
judging.normalize_judgment decide what is valid, so the pages refuse what the API refuses."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext, gettext_lazy

from annotation import limits
from annotation.task_types.cultural_prompt.payload import (
    CATEGORIES,
    ID_LENGTH,
    MAX_RESPONSES,
    NAME_LENGTH,
    PART_LABELS,
    PART_LENGTH,
    PARTS,
    RESPONSE_LENGTH,
)

_TEXT = {"dir": "auto", "autocomplete": "off"}
_LIMIT = {"max_length": limits.TOO_LONG}
PART_HELP = {
    "user": gettext_lazy("Who is asking (e.g. “High school student ako.”)."),
    "context": gettext_lazy("The situation the question comes from."),
    "situation": gettext_lazy(
        "This variant's personal situation (e.g. “Hindi ako mayaman.”); empty for the base prompt."
    ),
    "instruction": gettext_lazy("What the user wants (e.g. “Anong maaari kong gawin?”)."),
}


def _text(label: Any, max_length: int, rows: int = 0, **attrs: Any) -> forms.CharField:
    widget = (
        forms.Textarea(attrs={**_TEXT, "rows": rows, **attrs}) if rows else forms.TextInput(attrs={**_TEXT, **attrs})
    )
    return forms.CharField(label=label, required=False, max_length=max_length, error_messages=_LIMIT, widget=widget)


RESPONSE_FIELD_LABELS = {
    "relevant": gettext_lazy("Relevant %(number)s"),
    "irrelevant": gettext_lazy("Irrelevant %(number)s"),
}
NEW_BASE = gettext_lazy("— none: this is a new base prompt —")


class CulturalPromptForm(forms.Form):
    """The prompt's parts (assembled live by static/js/task_types/cultural_prompt/compose.js), the base
    prompt this one is a variant of, chosen among the base prompts of its unit (`base_prompts`, from
    payload.base_prompts; the shared parts fill the empty fields when one is chosen), and relevant_1..5,
    irrelevant_1..5 with the best relevant one marked."""

    prompt_id = forms.ChoiceField(label=gettext_lazy("Variant of"), required=False)
    variation_id = _text(gettext_lazy("Variant id (optional)"), ID_LENGTH)
    category = forms.ChoiceField(
        label=gettext_lazy("Category"),
        required=False,
        choices=[("", gettext_lazy("— the unit's —")), *((c, c) for c in CATEGORIES)],
    )
    topic = _text(gettext_lazy("Topic"), NAME_LENGTH)
    justification = forms.CharField(required=False, max_length=limits.JUSTIFICATION, widget=forms.HiddenInput)

    def __init__(
        self,
        *args: Any,
        base_prompts: list[dict[str, Any]] | None = None,
        variant_of: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.base_prompts = list(base_prompts or [])
        # A variant request (variants.py): its base preselected, the empty shared parts filled with the base's.
        self.variant_of = variant_of
        if variant_of and not self.initial.get("prompt_id"):
            self.initial = {**self.initial, "prompt_id": variant_of["id"]}
            for part, text in variant_of["parts"].items():
                if not self.initial.get(part):
                    self.initial[part] = text
        choices = [("", NEW_BASE), *((b["id"], b["label"]) for b in self.base_prompts)]
        current = self.initial.get("prompt_id") or ""
        if current and current not in {value for value, _ in choices}:
            # The base it already names (an import, or a base outside the unit) stays selectable.
            choices.append((current, current))
        self.fields["prompt_id"].choices = choices
        self.fields["prompt_id"].help_text = gettext(
            "A variant shares its base prompt's user, context and instruction and changes the personal "
            "situation; choosing a base fills the empty parts with its own."
        )
        for part in PARTS:
            attrs = {"data-part": part}
            if part == "user":
                attrs["autofocus"] = True
            self.fields[part] = _text(PART_LABELS[part], PART_LENGTH, rows=2, **attrs)
            self.fields[part].help_text = PART_HELP[part]
        for kind in ("relevant", "irrelevant"):
            for number in range(1, MAX_RESPONSES + 1):
                self.fields[f"{kind}_{number}"] = _text(
                    RESPONSE_FIELD_LABELS[kind] % {"number": number}, RESPONSE_LENGTH, rows=2
                )
        self.fields["best"] = forms.ChoiceField(
            required=False,
            choices=[(str(n), str(n)) for n in range(1, MAX_RESPONSES + 1)],
            widget=forms.RadioSelect,
        )

    def base_parts(self) -> dict[str, dict[str, str]]:
        """Base prompt id -> its shared parts, for the page's script (json_script)."""
        return {base["id"]: base["parts"] for base in self.base_prompts}

    def parts(self) -> list[forms.BoundField]:
        return [self[part] for part in PARTS]

    def relevant_rows(self) -> list[tuple[int, forms.BoundField, Any]]:
        radios = list(self["best"])
        return [(n, self[f"relevant_{n}"], radios[n - 1]) for n in range(1, MAX_RESPONSES + 1)]

    def irrelevant_fields(self) -> list[forms.BoundField]:
        return [self[f"irrelevant_{n}"] for n in range(1, MAX_RESPONSES + 1)]


def form_initial(payload: dict[str, Any]) -> dict[str, Any]:
    initial: dict[str, Any] = {
        name: payload.get(name, "") for name in ("prompt_id", "variation_id", "category", "topic", *PARTS)
    }
    for kind in ("relevant", "irrelevant"):
        for number, text in enumerate((payload.get(kind) or [])[:MAX_RESPONSES], start=1):
            initial[f"{kind}_{number}"] = text
    if isinstance(payload.get("best"), int):
        initial["best"] = str(payload["best"] + 1)
    return initial


def payload_data(cleaned: dict[str, Any]) -> dict[str, Any]:
    """The form as normalize's input; the best is the number of a relevant row counted among the
    written ones (an empty row in between does not shift it)."""
    data: dict[str, Any] = {
        name: cleaned.get(name) or "" for name in ("prompt_id", "variation_id", "category", "topic", *PARTS)
    }
    best_row = cleaned.get("best")
    best = None
    for kind in ("relevant", "irrelevant"):
        written = []
        for number in range(1, MAX_RESPONSES + 1):
            text = (cleaned.get(f"{kind}_{number}") or "").strip()
            if text:
                if kind == "relevant" and best_row == str(number):
                    best = len(written)
                written.append(text)
        data[kind] = written
    data["best"] = best
    return data


class Mc1Form(forms.Form):
    """A validator's pick: the shown position (1..k, digit keys); the server maps it to the option
    through the order it showed this validator (judging.complete_judgment)."""

    choice = forms.ChoiceField(
        choices=[(str(n), str(n)) for n in range(1, 12)], required=False, widget=forms.RadioSelect
    )
    comment = forms.CharField(
        required=False,
        max_length=limits.COMMENT,
        label=gettext_lazy("Comment (optional)"),
        widget=forms.Textarea(attrs={**_TEXT, "rows": 2}),
    )

    @staticmethod
    def initial_for(previous: Any) -> dict[str, Any]:
        if previous is None:
            return {}
        value = previous.value or {}
        return {"choice": str(value.get("position") or ""), "comment": previous.comment}

    def judgment_data(self) -> dict[str, Any]:
        data = self.cleaned_data
        return {
            "choice": data.get("choice") or "",
            "comment": data.get("comment") or "",
        }
