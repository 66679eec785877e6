"""The task-type contract in parts: one class of hooks per module, composed by TaskType (annotation.task_types.base)."""
