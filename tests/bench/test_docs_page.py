"""The manual's benchmarks page is rendered from the results file and the goals, with nothing typed by hand."""

from __future__ import annotations

from pathlib import Path

from mkdocs.config import load_config
from mkdocs.structure.files import Files

from bench import docs_page
from bench.goals import BENCHES, Bench, Goal

LOOP = Bench("loop", "100,000 items", (Goal("p95_ms", "<=", 20.0), Goal("plan_seconds", "<", 5.0)))
ROOT = Path(__file__).resolve().parents[2]
MEMORY = Bench("memory", "a 50 MB file", (Goal("peak_mb", "<", 300.0),))


def line(bench: str, size: str, args: list[str], result: dict | None, exit_status: int = 0) -> dict:
    return {"bench": bench, "size": size, "args": args, "exit_status": exit_status, "seconds": 3.0, "result": result}


def table(page: str, bench: str) -> list[str]:
    section = page.split(f"## `{bench}`\n", 1)[1].split("\n## ", 1)[0]
    return [row for row in section.splitlines() if row.startswith("| ")]


def test_a_full_size_run_judges_each_goal_beside_the_same_run_copy_rate():
    figures = {"p95_ms": 12.5, "plan_seconds": 6.25, "copy_rows_per_second": 1_250_000}
    results = [line("loop", "100,000 items", [], figures)]

    page = docs_page.render(results, (LOOP,))

    assert table(page, "loop") == [
        "| size | figure | goal | measured | same-run COPY rows/s | met |",
        "| 100,000 items | `p95_ms` | <= 20.0 | 12.5 | 1,250,000 | yes |",
        "| 100,000 items | `plan_seconds` | < 5.0 | 6.25 | 1,250,000 | **no** |",
    ]
    assert "Small size" not in page


def test_a_small_run_says_so_and_judges_nothing():
    results = [line("memory", "small", ["--mb", "0.3"], {"peak_mb": 101.4})]

    page = docs_page.render(results, (MEMORY,))

    assert table(page, "memory") == [
        "| size | figure | goal | measured | same-run COPY rows/s | met |",
        "| small: `--mb 0.3` | `peak_mb` | < 300.0 | 101 | – | not judged |",
    ]
    assert '!!! note "Small size"' in page


def test_a_bench_that_did_not_run_or_is_missing_is_named():
    results = [line("loop", "small", ["--items", "3"], None, exit_status=1)]

    page = docs_page.render(results, (LOOP, MEMORY))

    assert "**Did not run** (exit status 1)." in page.split("## `loop`", 1)[1]
    assert "Not in the results file: run it with `bench/run_all.py --only memory`." in page


def test_the_committed_results_cover_every_bench_each_of_which_ran():
    lines = docs_page.read_results(docs_page.RESULTS)

    assert sorted(entry["bench"] for entry in lines) == sorted(bench.name for bench in BENCHES)
    assert [entry["bench"] for entry in lines if entry["exit_status"] != 0 or not entry["result"]] == []


def test_the_hook_adds_the_rendered_page_to_the_build():
    config = load_config(str(ROOT / "mkdocs.yml"))

    files = config.plugins.on_files(Files([]), config=config)  # as a build runs the hooks

    page = files.get_file_from_path("benchmarks.md")
    assert page.content_string == docs_page.render(docs_page.read_results(docs_page.RESULTS))
