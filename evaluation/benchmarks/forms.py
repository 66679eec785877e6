"""The form that starts a benchmark from the page: shape only. Its parameters are the CLI's
(evaluation/management/commands/benchmark.py) and go to run_create(kind="benchmark"), whose kind
(evaluation/benchmarks/kind.py) checks every rule and explains a refusal."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from annotation.models import Item, Project
from annotation.task_types.base import BenchmarkSpec
from evaluation.benchmarks.dataset import SOURCES
from evaluation.benchmarks.kind import CUSTOM_PREFIX, MODES
from evaluation.benchmarks.likelihood import NORMALISATIONS
from evaluation.models import Endpoint, PromptTemplate

# What the page calls each code of the run's parameters (the codes are what the run stores).
MODE_LABELS = {"chat": _("Chat"), "completion": _("Completion"), "likelihood": _("Likelihood")}
NORMALISATION_LABELS = {"tokens": _("Per token"), "bytes": _("Per UTF-8 byte"), "none": _("None")}


def template_choices(spec: BenchmarkSpec, project: Project) -> list[tuple[str, str]]:
    """The task type's built-in templates, then the project's own (PromptTemplate "benchmark:<name>")."""
    builtin = [
        (
            t.name,
            f"{t.label}{' ' + gettext('(open-ended)') if t.open_ended else ''}{f' — {t.source}' if t.source else ''}",
        )
        for t in spec.templates
    ]
    custom = [
        (
            name.removeprefix(CUSTOM_PREFIX),
            gettext("%(name)s (this project's)") % {"name": name.removeprefix(CUSTOM_PREFIX)},
        )
        for name in PromptTemplate.objects.filter(project=project, name__startswith=CUSTOM_PREFIX)
        .order_by("name")
        .values_list("name", flat=True)
    ]
    return builtin + custom


class BenchmarkForm(forms.Form):
    endpoints = forms.ModelMultipleChoiceField(
        label=_("Endpoints"),
        queryset=Endpoint.objects.order_by("name"),
        to_field_name="name",
        widget=forms.CheckboxSelectMultiple,
    )
    templates = forms.MultipleChoiceField(
        label=_("Templates"),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_("None chosen: every built-in template."),
    )
    gold_key = forms.ChoiceField(label=_("Gold key"))
    categories = forms.MultipleChoiceField(
        label=_("Categories"),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_("None chosen: every category."),
    )
    sources = forms.MultipleChoiceField(
        label=_("Sources"),
        required=False,
        choices=[(s, Item.Source(s).label) for s in SOURCES],
        widget=forms.CheckboxSelectMultiple,
        help_text=_("None chosen: every source."),
    )
    split = forms.CharField(
        label=_("Split"), required=False, max_length=40, help_text=_("Only items of this export split.")
    )
    language = forms.ChoiceField(required=False, label=_("Prompt language"))
    mode = forms.ChoiceField(label=_("Mode"), choices=[(m, MODE_LABELS[m]) for m in MODES], initial="chat")
    open_ended = forms.BooleanField(required=False, label=_("Open-ended (reviewers judge the replies)"))
    temperature = forms.FloatField(label=_("Temperature"), required=False, min_value=0, max_value=2, initial=0)
    max_tokens = forms.IntegerField(label=_("Max tokens"), required=False, min_value=1, max_value=32000, initial=32)
    system = forms.CharField(
        required=False, label=_("System prompt"), widget=forms.Textarea(attrs={"rows": 2, "dir": "auto"})
    )
    normalisation = forms.ChoiceField(
        label=_("Normalisation"),
        required=False,
        choices=[(n, NORMALISATION_LABELS[n]) for n in NORMALISATIONS],
        initial="tokens",
        help_text=_("Likelihood mode: divide an option's log-probability by its tokens, its UTF-8 bytes, or nothing."),
    )
    prompt_prefix = forms.CharField(
        label=_("Prompt prefix"),
        required=False,
        max_length=200,
        help_text=_("Likelihood mode: text put before every prompt, e.g. the model's BOS token <|im_start|>."),
    )

    def __init__(self, data: Any = None, *, spec: BenchmarkSpec, project: Project) -> None:
        super().__init__(data)
        self.fields["templates"].choices = template_choices(spec, project)
        self.fields["gold_key"].choices = [(key, spec.gold_key_labels.get(key, key)) for key in spec.gold_keys]
        if len(spec.gold_keys) == 1:  # nothing to choose
            del self.fields["gold_key"]
        self.fields["categories"].choices = [
            (name, name) for name in project.categories.order_by("name").values_list("name", flat=True)
        ]
        self.fields["language"].choices = [("", "—")] + [
            (code, f"{name} ({code})") for code, name in project.languages.order_by("code").values_list("code", "name")
        ]
        if not any(t.open_ended for t in spec.templates):
            del self.fields["open_ended"]
        if spec.kind != "choice":  # likelihood scores options; a label task type has none
            self.fields["mode"].choices = [(m, MODE_LABELS[m]) for m in MODES if m != "likelihood"]
            del self.fields["normalisation"], self.fields["prompt_prefix"]

    def parameters(self) -> dict[str, Any]:
        data = self.cleaned_data
        parameters = {
            "templates": data["templates"],
            "gold_key": data.get("gold_key", ""),
            "categories": data["categories"],
            "sources": data["sources"],
            "split": data["split"],
            "language": data["language"],
            "mode": data["mode"],
            "open_ended": data.get("open_ended", False),
            "system": data["system"],
            "temperature": data["temperature"],
            "max_tokens": data["max_tokens"],
        }
        if data.get("mode") == "likelihood":
            parameters["normalisation"] = data["normalisation"] or "tokens"
            parameters["prompt_prefix"] = data["prompt_prefix"]
        return parameters
