"""The layers hold and no import goes in a circle: import-linter checks the contracts of pyproject.toml
([tool.importlinter]) over every import statement of annotation, qc and evaluation, those inside
functions included. The last two tests break a copy of the code on purpose and see the check fail."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("annotation", "qc", "evaluation")
CONTRACTS = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]
RULES = "\n".join(f"- {contract['name']}" for contract in CONTRACTS)


def lint_imports(root: Path) -> subprocess.CompletedProcess:
    """import-linter over the packages under `root`, in a process of its own: the packages are found from
    its working directory (lint-imports puts it first on the path), never the ones this process imported."""
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    env["COLUMNS"] = "200"  # one contract per line in the summary
    return subprocess.run(
        [sys.executable, "-c", "from importlinter.cli import lint_imports_command; lint_imports_command()"]
        + ["--no-cache", "--no-logo"],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def broken(result: subprocess.CompletedProcess) -> list[str]:
    return sorted(line.removesuffix(" BROKEN") for line in result.stdout.splitlines() if line.endswith(" BROKEN"))


def copy_of_the_code(tmp_path: Path) -> Path:
    """The three packages, the contracts and our contract type, copied: the check runs there unchanged."""
    for package in PACKAGES:
        shutil.copytree(ROOT / package, tmp_path / package, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    (tmp_path / "tests" / "config").mkdir(parents=True)
    (tmp_path / "tests" / "__init__.py").touch()
    (tmp_path / "tests" / "config" / "__init__.py").touch()
    shutil.copy(ROOT / "tests" / "config" / "import_contracts.py", tmp_path / "tests" / "config")
    return tmp_path


def test_the_code_keeps_every_import_contract():
    result = lint_imports(ROOT)

    assert result.returncode == 0, (
        f"An import breaks the layers or closes a circle. The rules (pyproject.toml, [tool.importlinter]):\n"
        f"{RULES}\nMove the code to the layer that owns it, or let the upper layer register a callable "
        f"(annotation/hooks.py); an import inside a function counts too.\n\n{result.stdout}{result.stderr}"
    )
    assert f"Contracts: {len(CONTRACTS)} kept, 0 broken." in result.stdout


def test_an_annotation_module_importing_qc_inside_a_function_fails_the_check(tmp_path):
    root = copy_of_the_code(tmp_path)
    judging = root / "annotation" / "services" / "judging.py"
    added = "\n\ndef _decide_gold():\n    from qc.gold import gold_recompute\n\n    return gold_recompute\n"
    judging.write_text(judging.read_text() + added)
    line = judging.read_text().splitlines().index("    from qc.gold import gold_recompute") + 1

    result = lint_imports(root)

    assert result.returncode == 1
    assert broken(result) == sorted(
        [
            "Layers: evaluation above qc above annotation (a layer imports only those below it)",
            "annotation imports neither qc nor evaluation (they plug in through annotation.hooks)",
            "No cycle between any two modules",  # qc.gold imports annotation.services.judging
        ]
    )
    assert f"- annotation.services.judging -> qc.gold (l.{line})" in result.stdout


def test_two_core_modules_importing_each_other_fail_the_check(tmp_path):
    # annotation's top level is no acyclic_siblings ancestor (its subpackages lean on each other by design):
    # only the module contract sees a circle there.
    root = copy_of_the_code(tmp_path)
    (root / "annotation" / "circle_a.py").write_text("from annotation import circle_b\n")
    (root / "annotation" / "circle_b.py").write_text("def f():\n    from annotation import circle_a\n")

    result = lint_imports(root)

    assert result.returncode == 1
    assert broken(result) == ["No cycle between any two modules"]
    assert (
        "annotation.circle_a imports itself through:\n"
        "- annotation.circle_a -> annotation.circle_b (l.1)\n"
        "- annotation.circle_b -> annotation.circle_a (l.2)\n"
    ) in result.stdout


def test_a_circle_closed_only_under_type_checking_is_no_circle(tmp_path):
    # Such an import never runs; the plugin contract names the core's models in its types that way.
    root = copy_of_the_code(tmp_path)
    (root / "annotation" / "circle_a.py").write_text("from annotation import circle_b\n")
    (root / "annotation" / "circle_b.py").write_text(
        "from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n    from annotation import circle_a\n"
    )

    result = lint_imports(root)

    assert (result.returncode, broken(result)) == (0, []), result.stdout
