"""Every bench's goals and sizes, in one place.

Each bench judges its own JSON line with `judge()` (the `goals` and `goals_met` keys), `bench/run_all.py`
runs them all and prints the table, and the documentation's benchmark page is generated from the
results file run_all writes. A goal changes here and nowhere else.

`args` is the size the goals are stated for (the issue's size); `small_args` a size that runs in seconds,
used by CI to prove every bench still runs (CI does not judge the small size's timings).
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

OPERATORS: dict[str, Callable[[Any, Any], bool]] = {
    "<": operator.lt,
    "<=": operator.le,
    ">=": operator.ge,
    "==": operator.eq,
}


@dataclass(frozen=True)
class Goal:
    figure: str  # a key of the bench's JSON line
    op: str  # one of OPERATORS
    value: float | bool | int

    def met(self, measured: Any) -> bool:
        return measured is not None and OPERATORS[self.op](measured, self.value)

    def __str__(self) -> str:
        return f"{self.op} {self.value}"


@dataclass(frozen=True)
class Bench:
    name: str  # the script bench/<name>.py
    size: str  # what `args` means, for people
    goals: tuple[Goal, ...]
    args: tuple[str, ...] = ()
    small_args: tuple[str, ...] = ()
    needs_redis: bool = False  # real Celery workers (REDIS_URL)


BENCHES: tuple[Bench, ...] = (
    Bench(
        "import_items",
        "100,000 id-csqa items with 500,000 answers",
        (Goal("items_per_second", ">=", 10_000), Goal("peak_mb", "<", 300.0)),
        small_args=("--items", "300"),
    ),
    Bench(
        "import_memory",
        "a 50 MB file of every import format, each imported in a fresh process",
        (Goal("max_peak_mb", "<", 300.0),),
        small_args=("--mb", "0.3"),
    ),
    Bench(
        "nli_rounds",
        "20,000 premises, 120,000 pairs, 200 annotators",
        (
            Goal("round1_plan_seconds", "<", 5.0),
            Goal("round2_plan_seconds", "<", 5.0),
            Goal("report_seconds", "<", 5.0),
        ),
        small_args=("--premises", "60", "--annotators", "10"),
    ),
    Bench(
        "judge_loop",
        "100,000 approved csqa items, 6 annotators, 5 judges per item, 6 clients",
        (
            Goal("next_p95_ms", "<=", 20.0),
            Goal("submit_p95_ms", "<=", 30.0),
            Goal("adaptive_submit_p95_ms", "<=", 30.0),
            Goal("size_ratio", "<=", 1.5),
            Goal("deep_page_ratio", "<=", 1.5),
            Goal("plan_copy_ratio", "<=", 5.0),
            Goal("gold_seconds", "<=", 3.0),
            Goal("report_seconds", "<=", 2.0),
            Goal("report_peak_mb", "<=", 300.0),
        ),
        small_args=("--items", "300", "--small", "100", "--clients", "2", "--pairs", "5", "--server-workers", "1"),
    ),
    Bench(
        "crossanswer",
        "100,000 items, 1,000 annotators, 5 answers each",
        (
            Goal("plan_seconds", "<", 10.0),
            Goal("alpha_seconds", "<", 2.0),
            Goal("export_items_per_second", ">=", 20_000),
            Goal("export_peak_mb", "<", 300.0),
        ),
        small_args=("--items", "300", "--annotators", "12"),
    ),
    Bench(
        "annotate_loop",
        "1,000 annotators, 100,000 concepts, 32 clients, 3,200 requests",
        (Goal("plan_seconds", "<", 10.0), Goal("p95_ms", "<", 50.0)),
        args=("--recreate-db",),
        small_args=(
            "--recreate-db",
            "--annotators",
            "12",
            "--concepts",
            "60",
            "--clients",
            "2",
            "--requests",
            "40",
            "--server-workers",
            "1",
        ),
    ),
    Bench(
        "item_list",
        "1,000,000 submitted csqa items, the reviewer's list page",
        (
            Goal("first_page_p95_ms", "<", 100.0),
            Goal("deep_page_p95_ms", "<", 100.0),
            Goal("search_p95_ms", "<", 100.0),
        ),
        small_args=("--items", "20000", "--requests", "5"),
    ),
    Bench(
        "preference",
        "5,000 prompts x 5 responses, 2 groups of 10 raters",
        (
            Goal("pairs_seconds", "<", 2.0),
            Goal("alpha_seconds", "<", 2.0),
            Goal("export_rows_per_second", ">=", 50_000),
            Goal("export_peak_mb", "<", 300.0),
        ),
        small_args=("--prompts", "50", "--raters", "3"),
    ),
    Bench(
        "arabculture",
        "the paper's 3,900 items: 13 countries x 2 annotators x 150",
        (Goal("export_import_lossless", "==", True),),
        small_args=("--per-annotator", "3"),
    ),
    Bench(
        "llm_runs",
        "2,000 calls, two workers, a test server answering after 200 ms, limit 16",
        (
            Goal("ratio", "<=", 1.15),
            Goal("max_concurrent_seen", "<=", 16),
            Goal("ceiling_calls_per_second", ">=", 500),
        ),
        small_args=("--calls", "40", "--workers", "1", "--ceiling-threads", "4"),
        needs_redis=True,
    ),
    Bench(
        "benchmark_runs",
        "5,000 gold csqa items x 2 templates, two workers x 32 threads, replies after 50 ms",
        (Goal("ratio", ">=", 0.85), Goal("leaderboard_ms", "<", 300)),
        small_args=("--items", "40", "--workers", "1", "--threads", "4"),
        needs_redis=True,
    ),
    Bench(
        "adaptive_replay",
        "id-csqa's 1,498 human-written questions, five released answers each, replayed per policy; "
        "the aggregation model fitted on 500,000 generated judgments",
        (Goal("saving", ">=", 0.5), Goal("agreement", ">=", 0.995), Goal("fit_seconds", "<", 5.0)),
        small_args=("--limit", "30", "--fit-judgments", "5000"),
    ),
)

BY_NAME: dict[str, Bench] = {bench.name: bench for bench in BENCHES}


def judge(name: str, result: Mapping[str, Any]) -> dict[str, Any]:
    """The `goals` and `goals_met` keys of the JSON line of the bench `name`."""
    return judge_goals(BY_NAME[name].goals, result)


def judge_goals(goals: Sequence[Goal], result: Mapping[str, Any]) -> dict[str, Any]:
    """figure -> {goal, measured, met}, and whether all are met (a figure the result lacks is not met)."""
    judged = {
        goal.figure: {"goal": str(goal), "measured": result.get(goal.figure), "met": goal.met(result.get(goal.figure))}
        for goal in goals
    }
    return {"goals": judged, "goals_met": all(g["met"] for g in judged.values())}
