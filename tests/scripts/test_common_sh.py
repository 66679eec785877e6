"""scripts/_common.sh: pip's output is shown only when pip fails (scripts/start's own lines stay visible)."""

import subprocess
from pathlib import Path

COMMON = Path(__file__).resolve().parents[2] / "scripts" / "_common.sh"
FAKE_PIP = """#!/bin/sh
echo "WARNING: pip noise about the machine"
echo "WARNING: more noise" >&2
exit {status}
"""


def _run(tmp_path: Path, status: int) -> subprocess.CompletedProcess:
    python = tmp_path / "bin" / "python"
    python.parent.mkdir()
    python.write_text(FAKE_PIP.format(status=status))
    python.chmod(0o755)
    script = f'source "{COMMON}"; VENV="{tmp_path}"; pip_quiet install -r x.txt; echo after'
    return subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=30)


def test_a_successful_pip_prints_nothing(tmp_path):
    result = _run(tmp_path, 0)

    assert (result.returncode, result.stdout, result.stderr) == (0, "after\n", "")


def test_a_failing_pip_shows_its_output_and_stops(tmp_path):
    result = _run(tmp_path, 3)

    assert result.returncode == 1
    assert result.stdout == ""
    assert result.stderr == (
        "WARNING: pip noise about the machine\n"
        "WARNING: more noise\n"
        "error: pip install -r x.txt failed (its output is above)\n"
    )
