"""The settings page's guidelines fields beyond the default writing guidelines: the judging guidelines and,
for each of the project's languages, both kinds in that language."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from annotation.guidelines import JUDGING, KINDS, WRITING

_AREA = {"rows": 6, "dir": "auto"}


def _name(kind: str, code: str) -> str:
    return f"guidelines_{kind}_{code}"


def guidelines_fields(languages: list[tuple[str, str]]) -> dict[str, forms.Field]:
    """Form fields for the judging guidelines and the translations; `languages` is [(code, name), ...]."""
    fields: dict[str, forms.Field] = {
        "judging_guidelines": forms.CharField(
            required=False,
            label=_("Judging guidelines"),
            widget=forms.Textarea(attrs=_AREA),
            help_text=_("Markdown. Shown on the answering and judging pages instead of the writing guidelines."),
        )
    }
    for code, name in languages:
        for kind in KINDS:
            label = (
                gettext("Writing guidelines in %(language)s")
                if kind == WRITING
                else gettext("Judging guidelines in %(language)s")
            ) % {"language": name}
            fields[_name(kind, code)] = forms.CharField(
                required=False,
                label=label,
                widget=forms.Textarea(attrs={**_AREA, "lang": code}),
                help_text=_("Shown to users whose interface is in this language; empty: the default guidelines."),
            )
    return fields


def guidelines_initial(project, languages: list[tuple[str, str]]) -> dict[str, str]:
    initial = {"judging_guidelines": project.judging_guidelines}
    for code, _language in languages:
        for kind in KINDS:
            initial[_name(kind, code)] = (project.guidelines_translations.get(code) or {}).get(kind, "")
    return initial


def guidelines_pop(cleaned: dict[str, Any], languages: list[tuple[str, str]]) -> dict[str, Any]:
    """Take the guidelines fields out of `cleaned` as project_update's keyword arguments."""
    translations: dict[str, dict[str, str]] = {}
    for code, _language in languages:
        texts = {kind: cleaned.pop(_name(kind, code), "").strip() for kind in KINDS}
        if any(texts.values()):
            translations[code] = {kind: text for kind, text in texts.items() if text}
    return {"judging_guidelines": cleaned.pop("judging_guidelines", ""), "guidelines_translations": translations}


__all__ = ["JUDGING", "WRITING", "guidelines_fields", "guidelines_initial", "guidelines_pop"]
