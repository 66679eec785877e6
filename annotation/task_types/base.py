from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from annotation.errors import InvalidInput


@dataclass(frozen=True)
class PayloadCheck:
    """Result of validating an item payload.

    `errors` block submission. `warnings` block it too unless the author writes a justification
    (e.g. "the concept is not in the question" for an unusual inflection the matcher misses).
    """

    errors: dict[str, list[str]] = field(default_factory=dict)
    warnings: dict[str, list[str]] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.errors and not self.warnings


@dataclass(frozen=True)
class JudgmentInput:
    """A validated judgment (cross-answer, label, rating): what a Judgment row stores."""

    value: dict[str, Any]
    flags: dict[str, Any]
    comment: str


@dataclass(frozen=True)
class IntSetting:
    """One whole-number project setting of a task type: its default and its inclusive bounds."""

    default: int
    min_value: int
    max_value: int


@dataclass(frozen=True)
class FieldChange:
    field: str
    old: str
    new: str


class TaskType:
    """Interface every task type implements. Subclasses are registered by `name`."""

    name: ClassVar[str]
    label: ClassVar[str]
    # Templates (paths under templates/) for the authoring form and the read-only item view.
    author_template: ClassVar[str]
    display_template: ClassVar[str]
    answer_template: ClassVar[str] = ""
    # (code, label, description) seeded into a new project's QC taxonomy.
    default_error_types: ClassVar[list[tuple[str, str, str]]] = []
    # The task type's own project settings (stored as JSON in Project.settings), by name.
    settings_spec: ClassVar[dict[str, IntSetting]] = {}

    def settings_defaults(self) -> dict[str, Any]:
        return {name: spec.default for name, spec in self.settings_spec.items()}

    def settings_clean(self, data: dict[str, Any]) -> dict[str, Any]:
        """The settings to store: `data` validated, missing ones filled with their defaults.

        Raises InvalidInput naming each refused field; unknown settings are refused, not dropped.
        """
        if not isinstance(data, dict):
            raise InvalidInput("Settings must be an object.", field_errors={"settings": ["Give an object."]})
        field_errors: dict[str, list[str]] = {}
        for name in sorted(set(data) - set(self.settings_spec)):
            field_errors[name] = [f"Unknown setting for {self.label}."]
        cleaned = self.settings_defaults()
        for name, spec in self.settings_spec.items():
            if name not in data:
                continue
            value = data[name]
            if isinstance(value, bool) or not isinstance(value, int):
                field_errors[name] = ["Give a whole number."]
            elif not spec.min_value <= value <= spec.max_value:
                field_errors[name] = [f"Use a whole number from {spec.min_value} to {spec.max_value}."]
            else:
                cleaned[name] = value
        if field_errors:
            raise InvalidInput(
                f"These settings are not valid: {', '.join(sorted(field_errors))}.", field_errors=field_errors
            )
        return cleaned

    def normalize_payload(self, data: dict[str, Any]) -> dict[str, Any]:
        """Shape raw input (form or API) into the canonical payload, without judging it."""
        raise NotImplementedError

    def check_payload(self, payload: dict[str, Any], *, concept: str | None) -> PayloadCheck:
        raise NotImplementedError

    def form_class(self) -> type:
        raise NotImplementedError

    def form_initial(self, payload: dict[str, Any]) -> dict[str, Any]:
        raise NotImplementedError

    def payload_from_form(self, cleaned_data: dict[str, Any]) -> dict[str, Any]:
        raise NotImplementedError

    def diff(self, old: dict[str, Any] | None, new: dict[str, Any]) -> list[FieldChange]:
        raise NotImplementedError

    def summary(self, payload: dict[str, Any]) -> str:
        raise NotImplementedError

    def answer_form_class(self) -> type | None:
        """The form annotators answer another's item with, or None when the protocol has no cross-answering."""
        return None

    def normalize_judgment(self, data: dict[str, Any]) -> JudgmentInput:
        """Validate a judgment of an item (form or API input); raise InvalidInput when it is not valid."""
        raise NotImplementedError


_REGISTRY: dict[str, TaskType] = {}


def register(cls: type[TaskType]) -> type[TaskType]:
    _REGISTRY[cls.name] = cls()
    return cls


def get_task_type(name: str) -> TaskType:
    try:
        return _REGISTRY[name]
    except KeyError:
        raise LookupError(f"Unknown task type {name!r}; known: {', '.join(sorted(_REGISTRY))}") from None


def task_type_choices() -> list[tuple[str, str]]:
    return [(name, tt.label) for name, tt in sorted(_REGISTRY.items())]


def registered_task_types() -> list[TaskType]:
    return [tt for _, tt in sorted(_REGISTRY.items())]


def project_settings(project: Any) -> dict[str, Any]:
    """The one way to read a project's task-type settings: the stored ones over the defaults.

    Stored settings were validated on write (`settings_clean`); a setting added to a task type later
    reads as its default until the project is saved again.
    """
    return {**get_task_type(project.task_type).settings_defaults(), **project.settings}


def autodiscover() -> None:
    """Register every task type: each folder `annotation/task_types/<name>/` with a `plugin` module.

    Called from AnnotationConfig.ready(), so adding a protocol is adding a folder; nothing in the core
    names one. A folder without `plugin.py` (pure parts still being built) is skipped.
    """
    import importlib
    import pkgutil
    from pathlib import Path

    package = Path(__file__).resolve().parent
    for info in sorted(pkgutil.iter_modules([str(package)]), key=lambda m: m.name):
        if info.ispkg and (package / info.name / "plugin.py").exists():
            importlib.import_module(f"annotation.task_types.{info.name}.plugin")
