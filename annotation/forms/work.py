"""Forms of the work-is-never-lost pages: skip with a reason, and an autosaved draft put back into a form."""

from django import forms
from django.utils.translation import gettext_lazy as _

from annotation.models import Skip
from annotation.services.skips import NOTE_MAX


class SkipForm(forms.Form):
    reason = forms.ChoiceField(label=_("Why do you skip it?"), choices=Skip.Reason.choices, widget=forms.RadioSelect)
    note = forms.CharField(
        label=_("Note (optional)"),
        required=False,
        max_length=NOTE_MAX,
        widget=forms.Textarea(attrs={"rows": 2, "dir": "auto"}),
    )

    def __init__(self, *args, **kwargs):
        # Its own ids: the task type's form on the same page may have a "note" field too.
        kwargs.setdefault("auto_id", "id_skip_%s")
        super().__init__(*args, **kwargs)


def restore_draft(form: forms.Form, fields: dict) -> None:
    """Put an autosaved draft's fields (as posted) into an unbound form's initial values.

    A field missing from the draft was posted empty: an unticked box, nothing chosen in a multiple choice.
    """
    for name, field in form.fields.items():
        if name in fields:
            form.initial[name] = fields[name]
        elif isinstance(field.widget, forms.CheckboxInput):
            form.initial[name] = False
        elif getattr(field.widget, "allow_multiple_selected", False):
            form.initial[name] = []
