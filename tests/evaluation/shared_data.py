"""The published id-csqa release, read in place from ../shared/data (CC BY-NC 4.0, Putri et al. 2024)."""

import json
from pathlib import Path
from typing import Any

from tests.qc.helpers import require, shared_data_dir


def idcsqa(version: str, name: str = "filtered_test.json") -> list[dict[str, Any]]:
    path: Path = require(shared_data_dir() / "id-csqa" / version / "ind" / name)
    return json.loads(path.read_text(encoding="utf-8"))
