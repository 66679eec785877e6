"""The marks of the hooks a task type must give (read by required_hooks and missing_hooks)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

# ---------------------------------------------------------------------------------------------------
# Which hooks a task type must give. Every other hook has a default that fits a protocol which does not
# need it; docs/tutorial/task-type.md lists both, and a test keeps that list equal to these marks.
# ---------------------------------------------------------------------------------------------------

_Hook = TypeVar("_Hook", bound=Callable[..., Any])


def required(hook: _Hook) -> _Hook:
    """Mark a hook every task type must give (the base's body only raises NotImplementedError)."""
    hook.required_with = ""  # type: ignore[attr-defined]
    return hook


def required_with(switch: str) -> Callable[[_Hook], _Hook]:
    """Mark a hook a task type must give once it turns `switch` on: a class attribute that is true, or a
    hook that returns something other than None (e.g. `benchmark_item` once `benchmark()` gives a spec)."""

    def mark(hook: _Hook) -> _Hook:
        hook.required_with = switch  # type: ignore[attr-defined]
        return hook

    return mark
