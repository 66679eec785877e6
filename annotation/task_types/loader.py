"""A template loader over the folders task types declare (TaskType.template_dir).

The five protocols keep their templates in templates/annotation/task_types/<name>/; a task type that
lives elsewhere (a plugin package, the tutorial's in tests/) brings a folder of its own, and the core's
pages include its templates by the names it declares, as for any other.
"""

from __future__ import annotations

from pathlib import Path

from django.template.loaders.filesystem import Loader as FilesystemLoader

from annotation.task_types.base import registered_task_types


class Loader(FilesystemLoader):
    def get_dirs(self) -> list[str | Path]:
        return [tt.template_dir for tt in registered_task_types() if tt.template_dir]
