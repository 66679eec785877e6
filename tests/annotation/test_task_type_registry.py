"""Task types are found by folder from AppConfig.ready(): the core imports none of them by name."""

from pathlib import Path

import pytest

from annotation.task_types import get_task_type, registered_task_types, task_type_choices

TASK_TYPES = Path(__file__).resolve().parents[2] / "annotation" / "task_types"


def test_every_folder_with_a_plugin_is_registered_at_start_up():
    folders = sorted(p.parent.name for p in TASK_TYPES.glob("*/plugin.py"))

    assert [tt.name for tt in registered_task_types()] == folders
    assert "csqa" in folders
    assert task_type_choices()[0][0] == folders[0]


def test_an_unknown_task_type_is_refused_with_the_known_ones():
    with pytest.raises(LookupError) as refused:
        get_task_type("no-such-protocol")

    assert (
        str(refused.value)
        == f"Unknown task type 'no-such-protocol'; known: {', '.join(t.name for t in registered_task_types())}"
    )
