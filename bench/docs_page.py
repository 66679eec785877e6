"""The manual's benchmarks page, written from the benches' own output: nothing on it is typed by hand.

An MkDocs hook (mkdocs.yml `hooks:`): every build renders `benchmarks.md` from `bench/results.jsonl` (the JSON
lines `bench/run_all.py` writes) and the goals in `bench/goals.py`, one table per bench. Run as a script it
prints the same page:

    .venv/bin/python bench/docs_page.py [RESULTS]
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

BENCH_DIR = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH_DIR.parent))

from mkdocs.structure.files import File  # noqa: E402

from bench.goals import BENCHES, Bench, judge_goals  # noqa: E402

RESULTS = BENCH_DIR / "results.jsonl"
PAGE = "benchmarks.md"
SMALL = "small"
COPY_RATE = "copy_rows_per_second"


def read_results(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _number(value: Any) -> str:
    if isinstance(value, bool) or value is None:
        return {True: "true", False: "false", None: "–"}[value]
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float):
        return f"{value:,.0f}" if abs(value) >= 1000 else f"{value:.3g}"
    return str(value)


def _met(goal: Mapping[str, Any], *, small: bool) -> str:
    if small:
        return "not judged"
    return "yes" if goal["met"] else "**no**"


def bench_section(bench: Bench, line: Mapping[str, Any] | None) -> list[str]:
    """One bench: what it measures, and a row per goal (size, figure, goal, measured, COPY rate, met)."""
    out = [f"## `{bench.name}`", ""]
    if line is None:
        return [*out, "Not in the results file: run it with `bench/run_all.py --only " + bench.name + "`.", ""]
    small = line.get("size") == SMALL
    args = " ".join(line.get("args") or []) or "(none)"
    size = f"small: `{args}`" if small else bench.size
    out += [f"At its goals' size: {bench.size}. Arguments of this run: `{args}`.", ""]
    result = line.get("result")
    if line.get("exit_status") != 0 or not isinstance(result, dict):
        return [*out, f"**Did not run** (exit status {line.get('exit_status')}).", ""]
    copy = _number(result.get(COPY_RATE)) if COPY_RATE in result else "–"
    out += [
        "| size | figure | goal | measured | same-run COPY rows/s | met |",
        "|---|---|---|---|---|---|",
    ]
    for figure, goal in judge_goals(bench.goals, result)["goals"].items():
        measured, met = _number(goal["measured"]), _met(goal, small=small)
        out.append(f"| {size} | `{figure}` | {goal['goal']} | {measured} | {copy} | {met} |")
    return [*out, ""]


def render(lines: Sequence[Mapping[str, Any]], benches: Sequence[Bench] = BENCHES) -> str:
    by_name = {line["bench"]: line for line in lines}
    sizes = sorted({line.get("size") == SMALL for line in lines})
    head = [
        "# Benchmarks",
        "",
        "This page is generated at every build of the manual from `bench/results.jsonl`, the JSON lines that",
        "`bench/run_all.py` writes, and the goals in `bench/goals.py`. Nothing on it is written by hand: to",
        "change a figure, run the benches; to change a goal, edit `bench/goals.py`.",
        "",
    ]
    if not lines:
        head += ["No results file yet: run `bench/run_all.py` (see below).", ""]
    elif sizes == [True]:
        head += [
            '!!! note "Small size"',
            "    The results file holds a run at the **small size** (`bench/run_all.py --small`, what CI runs): it",
            "    proves that every bench still runs, and its timings on small data judge nothing. The goals",
            "    are stated for the size named under each bench; run `bench/run_all.py` without `--small` on an",
            "    otherwise idle machine to measure them.",
            "",
        ]
    head += [
        "Timings vary several-fold between machines and with their load, so each row carries the same run's",
        "`copy_rows_per_second` (a plain COPY into an index-free table: the machine's yardstick), where the",
        "bench measures it.",
        "",
        "## Running the benches",
        "",
        "```sh",
        "DATABASE_URL=postgres://postgres@127.0.0.1:5432/gotong REDIS_URL=redis://127.0.0.1:6379/1 \\",
        "    .venv/bin/python bench/run_all.py            # every bench at its goals' size",
        ".venv/bin/python bench/run_all.py --only judge_loop item_list",
        ".venv/bin/python bench/run_all.py --small --results bench/results.jsonl   # the small size",
        "```",
        "",
        "Each bench runs in its own database (`gotong_bench_<name>` on the server of `DATABASE_URL`) and prints",
        "one JSON line; `run_all.py` prints the table below and writes the lines to `bench/results.jsonl`",
        "(at the small size only when `--results` names a file). Commit the file to update this page.",
        "",
    ]
    body: list[str] = []
    for bench in benches:
        body += bench_section(bench, by_name.get(bench.name))
    return "\n".join(head + body)


# --- the MkDocs hook -------------------------------------------------------------------------------


def on_files(files, *, config):
    """Add the generated page to the build (it is never a file in docs/)."""
    files.append(File.generated(config, PAGE, content=render(read_results(RESULTS))))
    return files


if __name__ == "__main__":
    print(render(read_results(Path(sys.argv[1]) if len(sys.argv) > 1 else RESULTS)))
