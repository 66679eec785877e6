"""The model side of task types: evaluation/task_types/<name>/ holds what a task type's LLM protocols need
beyond the core engine (run kinds, their pages), as annotation/task_types/<name>/ holds its plugin.

Discovered, not named by the core: for every registered task type, `evaluation.task_types.<name>.kinds`
(run kinds it registers) and `evaluation.task_types.<name>.urls` (its pages) are loaded when present.
"""

from __future__ import annotations

import importlib
import importlib.util

from django.urls import reverse

from annotation.task_types import registered_task_types


def task_type_modules(leaf: str) -> list[str]:
    """`evaluation.task_types.<name>.<leaf>` of every registered task type that has one."""
    found = []
    for task_type in registered_task_types():
        module = f"{__name__}.{task_type.name}.{leaf}"
        try:
            spec = importlib.util.find_spec(module)
        except ModuleNotFoundError:  # no folder for this task type
            spec = None
        if spec is not None:
            found.append(module)
    return found


def task_type_pages(task_type: str, slug: str) -> list[tuple[str, str]]:
    """(label, URL) of the project pages a task type's urls.py names in its PAGES, for the runs page."""
    module = f"{__name__}.{task_type}.urls"
    if module not in task_type_modules("urls"):
        return []
    pages = getattr(importlib.import_module(module), "PAGES", {})
    return [(label, reverse(name, args=[slug])) for name, label in pages.items()]
