"""The run kinds csqa registers (imported by evaluation.apps through evaluation.task_types)."""

from evaluation.task_types.csqa.adaptation import kind as adaptation_kind  # noqa: F401
from evaluation.task_types.csqa.generation import kind as generation_kind  # noqa: F401
