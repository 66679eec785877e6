from annotation.task_types.csqa.plugin import CsqaTaskType

__all__ = ["CsqaTaskType"]
