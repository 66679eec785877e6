"""Task types are found by folder from AppConfig.ready(): the core imports none of them by name. A task
type kept elsewhere is loaded only when the settings list its plugin (the tests list the tutorial's)."""

import ast
from pathlib import Path

import pytest
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

from annotation.task_types import get_task_type, registered, registered_task_types, task_type_choices
from tests.annotation.tiny_task_type import RoundsTaskType

ROOT = Path(__file__).resolve().parents[2]
TASK_TYPES = ROOT / "annotation" / "task_types"


def test_every_folder_with_a_plugin_and_every_listed_plugin_is_registered_at_start_up():
    folders = sorted(p.parent.name for p in TASK_TYPES.glob("*/plugin.py"))
    listed = [tt.name for tt in registered_task_types() if type(tt).__module__ in settings.GOTONG_EXTRA_TASK_TYPES]

    assert settings.GOTONG_EXTRA_TASK_TYPES == ("tests.tutorial_task_type.plugin",)
    assert listed == ["sentiment"]
    assert [tt.name for tt in registered_task_types()] == sorted(folders + listed)
    assert "csqa" in folders
    assert task_type_choices()[0][0] == "csqa"


def test_a_deployment_lists_no_task_type_outside_the_folder():
    """The base settings (which production and dev import) list none; only config/settings/test.py does."""
    for name in ("base", "production", "dev"):
        tree = ast.parse((ROOT / "config" / "settings" / f"{name}.py").read_text())
        listed = [
            node.value
            for node in ast.walk(tree)
            if isinstance(node, ast.Assign | ast.AnnAssign)
            for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
            if isinstance(target, ast.Name) and target.id == "GOTONG_EXTRA_TASK_TYPES"
        ]
        expected = ["()"] if name == "base" else []
        assert [ast.unparse(value) for value in listed] == expected, name


def test_an_unknown_task_type_is_refused_with_the_known_ones():
    with pytest.raises(LookupError) as refused:
        get_task_type("no-such-protocol")

    assert (
        str(refused.value)
        == f"Unknown task type 'no-such-protocol'; known: {', '.join(t.name for t in registered_task_types())}"
    )


def test_a_task_type_registered_for_a_block_is_found_inside_it_only():
    before = [tt.name for tt in registered_task_types()]
    rounds = RoundsTaskType()

    with registered(rounds):
        inside = get_task_type("roundstest")
        names = [tt.name for tt in registered_task_types()]

    assert inside is rounds
    assert names == sorted([*before, "roundstest"])
    assert [tt.name for tt in registered_task_types()] == before


def test_a_name_already_registered_is_refused_and_the_first_kept():
    sentiment = get_task_type("sentiment")
    impostor = RoundsTaskType()
    impostor.name = "sentiment"

    with pytest.raises(ImproperlyConfigured) as refused, registered(impostor):
        pass

    assert str(refused.value) == "A task type named 'sentiment' is registered already."
    assert get_task_type("sentiment") is sentiment
