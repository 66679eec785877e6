"""Where the published IndoNLI and MNLI-id files live: ../shared/data beside the repository, never copied
in (IndoNLI: Mahendra et al. 2021, CC BY-SA 4.0; MNLI-id: MNLI's dev set machine-translated, shipped
with IndoNLI). Tests skip only when the whole folder is absent; a missing file inside it is a failure."""

from pathlib import Path

import pytest

# tests/annotation/task_types/nli/data.py -> parents[4] is the repository root
DATA = Path(__file__).resolve().parents[4] / ".." / "shared" / "data"


def data_file(*parts: str) -> Path:
    if not DATA.is_dir():
        pytest.skip(f"the published datasets are not at {DATA.resolve()} (see its README.md)")
    return DATA.joinpath(*parts)
