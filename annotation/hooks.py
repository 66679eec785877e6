"""Where the layers above the core plug into it.

annotation imports neither qc nor evaluation (docs: ARCHITECTURE.md; tests/config/test_import_layers.py
keeps it so). Three steps of the core's own work are done by qc, which registers them here from its
AppConfig.ready(); the core calls them through this module:

- the gold engine: a judgment recomputes its item's gold decision, which may ask for a next round
  (annotation.services.judgments, annotation.services.judging), and an import writes its items'
  decisions into the engine's table (annotation.services.imports);
- a new project's QC taxonomy (its task type's default error types), seeded where the project is made;
- the item page's panels for reviewers and admins (the judgments, the gold decision, its overrides).

Registering again replaces the earlier registration (the gold engine) or is a no-op (the same callable),
so a second ready() changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ImproperlyConfigured
from django.db import models

from annotation.gold import GoldRecompute
from annotation.models import Item, Membership, Project


@dataclass(frozen=True)
class GoldEngine:
    """The gold engine's entry points that the core calls."""

    # One row per decided item: the import engine writes new items' decisions into it.
    decision_model: type[models.Model]
    # (*, item_ids) -> GoldRecompute: recompute and save the items' decisions (undecidable ones skipped).
    recompute_outcomes: Callable[..., GoldRecompute]
    # (*, item, project) -> GoldRecompute: the same for one item whose row lock the caller's transaction holds.
    recompute_locked_item: Callable[..., GoldRecompute]
    # (*, project, item_ids) -> GoldRecompute: the same for the bulk round planner, whose items are most of
    # a project (the engine may recompute the whole project at once).
    recompute_for_rounds: Callable[..., GoldRecompute]


_gold_engine: GoldEngine | None = None
_project_created: list[Callable[..., Any]] = []
_item_panels: list[Callable[..., dict[str, Any]]] = []


def gold_engine_register(engine: GoldEngine) -> None:
    global _gold_engine
    _gold_engine = engine


def gold_engine() -> GoldEngine:
    if _gold_engine is None:
        raise ImproperlyConfigured("No gold engine is registered: is the qc app in INSTALLED_APPS?")
    return _gold_engine


def gold_recompute_outcomes(*, item_ids: Iterable[int]) -> GoldRecompute:
    return gold_engine().recompute_outcomes(item_ids=item_ids)


def gold_recompute_for_rounds(*, project: Project, item_ids: list[int]) -> GoldRecompute:
    return gold_engine().recompute_for_rounds(project=project, item_ids=item_ids)


def gold_recompute_locked_item(*, item: Item, project: Project) -> GoldRecompute:
    return gold_engine().recompute_locked_item(item=item, project=project)


def on_project_created(callback: Callable[..., Any]) -> None:
    """callback(*, project) runs inside the transaction that creates a project, once it has its languages."""
    if callback not in _project_created:
        _project_created.append(callback)


def project_created(*, project: Project) -> None:
    for callback in _project_created:
        callback(project=project)


def on_item_page_for_reviewers(panel: Callable[..., dict[str, Any]]) -> None:
    """panel(*, item, membership) -> template context that the item page adds for reviewers and admins."""
    if panel not in _item_panels:
        _item_panels.append(panel)


def item_page_for_reviewers(*, item: Item, membership: Membership) -> dict[str, Any]:
    context: dict[str, Any] = {}
    for panel in _item_panels:
        context.update(panel(item=item, membership=membership))
    return context
