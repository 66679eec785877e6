"""Task-type plugins. The core only talks to `TaskType`; everything protocol-specific lives in a plugin."""

from annotation.task_types.base import (
    TaskType,
    autodiscover,
    get_task_type,
    register,
    registered_task_types,
    task_type_choices,
)

__all__ = ["TaskType", "autodiscover", "get_task_type", "register", "registered_task_types", "task_type_choices"]
