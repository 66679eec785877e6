"""Forms of the annotation pages. They shape input only; every rule about the data lives in a service."""

from __future__ import annotations

from django import forms
from django.contrib.auth import password_validation
from django.utils.translation import gettext, gettext_lazy

from annotation import limits
from annotation.errors import DomainError
from annotation.models import AggregationModel, Membership, ProjectLanguage
from annotation.task_types import get_task_type, task_type_choices
from annotation.task_types.base import BoolSetting, ChoiceSetting, TaskType, has_categorical_judgments

_TEXT = {"dir": "auto", "autocomplete": "off"}
DIRECTIONS = tuple(ProjectLanguage.Direction.values)


def apply_domain_error(form: forms.Form, exc: DomainError) -> None:
    """Put a service's field errors next to their fields; errors for unknown fields go on top."""
    for field, errors in exc.field_errors.items():
        for error in errors:
            form.add_error(field if field in form.fields else None, error)


def _language_line(line: str) -> dict[str, str] | None:
    """ "id, Indonesian, ltr" (the form's help and what the settings page shows) or "id Indonesian ltr";
    the name may hold spaces (and, in the comma form, commas); the direction is optional (ltr)."""
    if "," in line:
        code, _, rest = line.partition(",")
        name, sep, last = rest.rpartition(",")
        if not sep or last.strip().lower() not in DIRECTIONS:
            name, last = rest, ""
        code, name = code.strip(), name.strip()
        if not code:
            return None
        return {"code": code, "name": name or code, "direction": last.strip().lower() or ProjectLanguage.Direction.LTR}
    parts = line.split()
    if not parts:
        return None
    code, rest_words = parts[0], parts[1:]
    direction = ProjectLanguage.Direction.LTR
    if rest_words and rest_words[-1].lower() in DIRECTIONS:
        direction = rest_words.pop().lower()
    return {"code": code, "name": " ".join(rest_words) or code, "direction": direction}


def parse_languages(text: str) -> list[dict[str, str]]:
    """One language per line: "code, name, direction" or "code name direction", e.g. "id, Indonesian, ltr",
    "su Basa Sunda" or "ar Arabic rtl"."""
    errors = []
    languages = [lang for lang in (_language_line(line) for line in text.splitlines()) if lang is not None]
    codes = [lang["code"] for lang in languages]
    for code in sorted({c for c in codes if codes.count(c) > 1}):
        errors.append(gettext("The code “%(code)s” appears more than once.") % {"code": code})
    if not languages:
        errors.append(gettext("Add at least one language, e.g. “id, Indonesian, ltr”."))
    if errors:
        raise forms.ValidationError(errors)
    return languages


def format_languages(languages) -> str:
    return "\n".join(f"{lang.code}, {lang.name}, {lang.direction}" for lang in languages)


class ProjectSettingsForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Name"), max_length=200, widget=forms.TextInput(attrs=_TEXT))
    languages = forms.CharField(
        label=gettext_lazy("Languages"),
        widget=forms.Textarea(attrs={**_TEXT, "rows": 3}),
        help_text=gettext_lazy(
            "One per line: code, name, direction (ltr or rtl). The first one sets the page direction."
        ),
    )
    guidelines = forms.CharField(
        label=gettext_lazy("Guidelines"),
        required=False,
        widget=forms.Textarea(attrs={**_TEXT, "rows": 10}),
        help_text=gettext_lazy("Markdown."),
    )
    authors_per_concept = forms.IntegerField(
        min_value=1, max_value=50, initial=2, label=gettext_lazy("Authors per concept (k)")
    )
    plan_seed = forms.IntegerField(
        label=gettext_lazy("Plan seed"), min_value=0, initial=0, help_text=gettext_lazy("Same seed, same plan.")
    )
    max_annotators = forms.IntegerField(
        label=gettext_lazy("Max annotators"),
        min_value=1,
        max_value=100_000,
        initial=200,
        required=False,
        help_text=gettext_lazy("No more annotators may join or be imported (empty: unchanged, 200 for a new project)."),
    )
    check_every = forms.IntegerField(
        label=gettext_lazy("Known-answer checks: one judging item in"),
        min_value=0,
        max_value=1000,
        initial=0,
        required=False,
        help_text=gettext_lazy(
            "E.g. 10: every tenth item a judge gets is a check (0: no checks). Applies to the next plan."
        ),
    )
    pause_below_percent = forms.IntegerField(
        label=gettext_lazy("Pause an annotator below this accuracy on checks (%)"),
        min_value=0,
        max_value=100,
        initial=0,
        required=False,
        help_text=gettext_lazy("0: never pause."),
    )
    pause_after_checks = forms.IntegerField(
        label=gettext_lazy("…after at least this many checks"),
        min_value=1,
        max_value=1000,
        initial=10,
        required=False,
    )

    def __init__(self, *args, task_type: TaskType | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        if task_type is not None:
            # The task type's own settings, after the core ones, as its settings_spec declares them.
            self.fields.update(task_setting_fields(task_type))
            if has_categorical_judgments(task_type):
                self.fields["aggregation_model"] = forms.ChoiceField(
                    label=gettext_lazy("Aggregation model"),
                    choices=AggregationModel.choices,
                    initial=AggregationModel.DAWID_SKENE,
                    required=False,  # not posted (a script, an older form): unchanged
                    help_text=gettext_lazy(
                        "Fitted on the judgments in the background and shown beside the published gold rule, "
                        "which still decides gold."
                    ),
                )

    def clean(self):
        cleaned = super().clean()
        for optional in ("max_annotators", "check_every", "pause_below_percent", "pause_after_checks"):
            if cleaned.get(optional) is None:
                cleaned.pop(optional, None)
        if cleaned.get("check_every") == 1:
            self.add_error("check_every", gettext_lazy("Use 0 (no checks) or 2 and more: every item can't be a check."))
        if not cleaned.get("aggregation_model"):
            cleaned.pop("aggregation_model", None)
        return cleaned

    def clean_languages(self) -> list[dict[str, str]]:
        return parse_languages(self.cleaned_data["languages"])


def task_setting_fields(task_type: TaskType) -> dict[str, forms.Field]:
    """Form fields for a task type's settings_spec (bounds, choices and labels from the spec)."""
    fields: dict[str, forms.Field] = {}
    for name, spec in task_type.settings_spec.items():
        label = spec.label or name.replace("_", " ").capitalize()
        if isinstance(spec, BoolSetting):
            field: forms.Field = forms.BooleanField(required=False, initial=spec.default)
        elif isinstance(spec, ChoiceSetting):
            labels = spec.choice_labels or spec.choices
            field = forms.ChoiceField(choices=list(zip(spec.choices, labels, strict=True)), initial=spec.default)
        else:
            field = forms.IntegerField(min_value=spec.min_value, max_value=spec.max_value, initial=spec.default)
        field.label, field.help_text = label, spec.help
        fields[name] = field
    return fields


class ProjectCreateForm(ProjectSettingsForm):
    slug = forms.SlugField(
        label=gettext_lazy("Slug"),
        max_length=80,
        required=False,
        help_text=gettext_lazy("Address of the project (/p/<slug>/). Made from the name if empty."),
    )
    task_type = forms.ChoiceField(label=gettext_lazy("Task type"), choices=())

    field_order = ["name", "slug", "languages", "task_type"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["task_type"].choices = task_type_choices()
        for later in ("check_every", "pause_below_percent", "pause_after_checks"):
            del self.fields[later]  # set on the settings page, once there is work to check

    def clean(self):
        """The chosen task type's settings that were posted (the page shows none: a new project starts
        with the task type's defaults, changed later on its settings page; scripts may post them)."""
        cleaned = super().clean()
        name = cleaned.get("task_type")
        if name:
            for setting, field in task_setting_fields(get_task_type(name)).items():
                if setting not in self.data:
                    continue
                try:
                    cleaned[setting] = field.clean(self.data.get(setting))
                except forms.ValidationError as exc:
                    self.add_error(None, f"{field.label}: {' '.join(exc.messages)}")
        return cleaned


class MemberAddForm(forms.Form):
    username = forms.CharField(label=gettext_lazy("Username"), max_length=150, widget=forms.TextInput(attrs=_TEXT))
    role = forms.ChoiceField(
        label=gettext_lazy("Role"), choices=Membership.Role.choices, initial=Membership.Role.ANNOTATOR
    )
    code = forms.CharField(
        label=gettext_lazy("Code"),
        max_length=40,
        required=False,
        widget=forms.TextInput(attrs=_TEXT),
        help_text=gettext_lazy("Public code in reports, e.g. W1."),
    )
    password = forms.CharField(
        label=gettext_lazy("Password"),
        required=False,
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
        help_text=gettext_lazy("Only to create a new account (platform admins): leave empty to add an existing user."),
    )

    def clean(self):
        cleaned = super().clean()
        password = cleaned.get("password")
        if password:
            try:
                password_validation.validate_password(password)
            except forms.ValidationError as exc:
                self.add_error("password", exc)
        return cleaned


class MemberRoleForm(forms.Form):
    role = forms.ChoiceField(label=gettext_lazy("Role"), choices=Membership.Role.choices)


class ProfileForm(forms.Form):
    native_languages = forms.CharField(
        label=gettext_lazy("Native languages"),
        max_length=200,
        required=False,
        widget=forms.TextInput(attrs=_TEXT),
        help_text=gettext_lazy("Comma-separated codes."),
    )
    region = forms.CharField(
        max_length=200, required=False, widget=forms.TextInput(attrs=_TEXT), label=gettext_lazy("Region / domicile")
    )
    country = forms.CharField(
        label=gettext_lazy("Country"), max_length=100, required=False, widget=forms.TextInput(attrs=_TEXT)
    )
    ethnicity = forms.CharField(
        label=gettext_lazy("Ethnicity"), max_length=200, required=False, widget=forms.TextInput(attrs=_TEXT)
    )
    years_in_region = forms.IntegerField(
        min_value=0, max_value=150, required=False, label=gettext_lazy("Years lived there")
    )
    education = forms.CharField(
        label=gettext_lazy("Education"), max_length=200, required=False, widget=forms.TextInput(attrs=_TEXT)
    )


class ConceptImportForm(forms.Form):
    file = forms.FileField(
        label=gettext_lazy("File"),
        help_text=gettext_lazy("CSV with columns category, concept (and concept_<lang>), or JSON Lines."),
    )
    format = forms.ChoiceField(
        label=gettext_lazy("Format"),
        choices=[
            ("", gettext_lazy("Detect from the file name")),
            ("csv", "CSV"),
            ("jsonl", gettext_lazy("JSON Lines")),
        ],
        required=False,
    )

    def clean_file(self):
        upload = self.cleaned_data["file"]
        problem = limits.upload_size_problem(upload.size)
        if problem:
            raise forms.ValidationError(problem)
        return upload
