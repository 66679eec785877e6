"""A task type's choice settings show each choice by its label, in the reader's language; the code is
what the form posts and the project stores."""

from django.utils import translation

from annotation.forms import task_setting_fields
from annotation.task_types import get_task_type, task_type_choices
from annotation.task_types.base import ChoiceSetting


def test_every_choice_setting_of_every_task_type_has_a_label_per_choice():
    for name, _label in task_type_choices():
        for setting, spec in get_task_type(name).settings_spec.items():
            if isinstance(spec, ChoiceSetting):
                assert len(spec.choice_labels) == len(spec.choices), f"{name}.{setting}"


def test_the_settings_form_shows_choice_labels_in_the_interface_language():
    with translation.override("id"):
        nli = task_setting_fields(get_task_type("nli"))
        preference = task_setting_fields(get_task_type("preference"))

        assert [(code, str(label)) for code, label in nli["annotator_type"].choices] == [
            ("lay", "Awam"),
            ("expert", "Pakar"),
        ]
        assert [(code, str(label)) for code, label in preference["rubric_language"].choices] == [
            ("id", "Indonesia"),
            ("en", "Inggris"),
        ]
