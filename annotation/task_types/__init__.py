"""Task-type plugins. The core only talks to `TaskType`; everything protocol-specific lives in a plugin."""

from annotation.task_types.base import (
    IntSetting,
    TaskType,
    autodiscover,
    get_task_type,
    missing_hooks,
    project_settings,
    register,
    registered,
    registered_task_types,
    required_hooks,
    task_type_choices,
)

__all__ = [
    "IntSetting",
    "TaskType",
    "autodiscover",
    "get_task_type",
    "missing_hooks",
    "project_settings",
    "register",
    "registered",
    "registered_task_types",
    "required_hooks",
    "task_type_choices",
]
