"""The project part of the task-type contract: what the task type is called and how a project of it is set up."""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

from django.utils.translation import gettext, pgettext_lazy

from annotation.errors import InvalidInput
from annotation.task_types.records import BoolSetting, ChoiceSetting, IntSetting, ProjectPage


class ProjectHooks:
    """Project: the task type's name on the new-project page, its own settings, its templates' folder and
    what it adds to the project page (set-up panels, own pages, the word for its unit, QC error types).

    A task type must give: `name`, `label`. Everything else has a default: no settings, no pages of its own.
    """

    name: ClassVar[str]
    label: ClassVar[str]

    # A folder of the task type's own templates, searched after templates/ (annotation.task_types.loader):
    # for a task type that lives outside this repository's folders (a plugin package, the tutorial's in
    # tests/). "": its templates are in templates/annotation/task_types/<name>/.
    template_dir: ClassVar[str | Path] = ""

    # Optional template of the task type's own set-up forms on the project page (admins only, e.g. "add
    # the paper's topics"); the core's stage panel links every stage, so this holds no links to them.
    project_panels_template: ClassVar[str] = ""
    # The task type's own pages, linked from the project page's stage panel (the core's pages are linked
    # from what the task type declares: judging_rule, importers, benchmark, ...).
    project_pages: ClassVar[tuple[ProjectPage, ...]] = ()
    # The catalog unit an author is given, in the core's pages ("k authors per premise").
    unit_word: ClassVar[str] = pgettext_lazy("unit", "concept")
    unit_words: ClassVar[str] = pgettext_lazy("unit", "concepts")
    # (code, label, description) seeded into a new project's QC taxonomy.
    default_error_types: ClassVar[list[tuple[str, str, str]]] = []
    # The task type's own project settings (stored as JSON in Project.settings), by name.
    settings_spec: ClassVar[dict[str, IntSetting | BoolSetting | ChoiceSetting]] = {}

    def settings_defaults(self) -> dict[str, Any]:
        return {name: spec.default for name, spec in self.settings_spec.items()}

    def settings_clean(self, data: dict[str, Any]) -> dict[str, Any]:
        """The settings to store: `data` validated, missing ones filled with their defaults.

        Raises InvalidInput naming each refused field; unknown settings are refused, not dropped.
        """
        if not isinstance(data, dict):
            raise InvalidInput(
                gettext("Settings must be an object."), field_errors={"settings": [gettext("Give an object.")]}
            )
        field_errors: dict[str, list[str]] = {}
        for name in sorted(set(data) - set(self.settings_spec)):
            field_errors[name] = [gettext("Unknown setting for %(label)s.") % {"label": self.label}]
        cleaned = self.settings_defaults()
        for name, spec in self.settings_spec.items():
            if name not in data:
                continue
            value = data[name]
            if isinstance(spec, BoolSetting):
                if isinstance(value, bool):
                    cleaned[name] = value
                else:
                    field_errors[name] = [gettext("Give true or false.")]
            elif isinstance(spec, ChoiceSetting):
                if value in spec.choices:
                    cleaned[name] = value
                else:
                    field_errors[name] = [gettext("Choose one of: %(join)s.") % {"join": ", ".join(spec.choices)}]
            elif isinstance(value, bool) or not isinstance(value, int):
                field_errors[name] = [gettext("Give a whole number.")]
            elif not spec.min_value <= value <= spec.max_value:
                field_errors[name] = [
                    gettext("Use a whole number from %(min_value)s to %(max_value)s.")
                    % {"min_value": spec.min_value, "max_value": spec.max_value}
                ]
            else:
                cleaned[name] = value
        if field_errors:
            raise InvalidInput(
                gettext("These settings are not valid: %(join)s.") % {"join": ", ".join(sorted(field_errors))},
                field_errors=field_errors,
            )
        return cleaned
