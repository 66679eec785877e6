"""Task-type plugins. The core only talks to `TaskType`; everything protocol-specific lives in a plugin."""

from annotation.task_types.base import TaskType, get_task_type, register, task_type_choices

__all__ = ["TaskType", "get_task_type", "register", "task_type_choices"]
