"""annotation.hooks: qc plugs the gold engine, a new project's error types and the item page's adjudication
into the core from its AppConfig.ready()."""

from __future__ import annotations

import pytest
from django.apps import apps
from django.core.exceptions import ImproperlyConfigured

from annotation import hooks
from qc import gold
from qc.adjudication import item_adjudication_panel
from qc.models import GoldDecision
from qc.services import error_types_seed_defaults


def test_qc_registers_its_part_of_the_core_at_start_up():
    engine = hooks.gold_engine()

    assert engine.decision_model is GoldDecision
    assert engine.recompute_outcomes is gold.gold_recompute_outcomes
    assert engine.recompute_locked_item is gold.gold_recompute_locked_item
    assert engine.recompute_for_rounds is gold.gold_recompute_for_rounds
    assert hooks._project_created == [error_types_seed_defaults]
    assert hooks._item_panels == [item_adjudication_panel]


def test_a_second_ready_registers_nothing_twice():
    apps.get_app_config("qc").ready()

    assert hooks._project_created == [error_types_seed_defaults]
    assert hooks._item_panels == [item_adjudication_panel]


def test_without_a_gold_engine_the_core_says_which_app_is_missing(monkeypatch):
    monkeypatch.setattr(hooks, "_gold_engine", None)

    with pytest.raises(ImproperlyConfigured, match="No gold engine is registered: is the qc app in INSTALLED_APPS"):
        hooks.gold_recompute_outcomes(item_ids=[1])


def test_every_project_created_callback_runs_once_with_the_project(monkeypatch):
    seen: list[object] = []
    monkeypatch.setattr(hooks, "_project_created", [])
    hooks.on_project_created(lambda *, project: seen.append(("first", project)))
    second = lambda *, project: seen.append(("second", project))  # noqa: E731
    hooks.on_project_created(second)
    hooks.on_project_created(second)

    hooks.project_created(project="p")

    assert seen == [("first", "p"), ("second", "p")]
