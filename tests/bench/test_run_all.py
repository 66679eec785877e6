"""Every bench still runs (at its small size), and a bench that fails makes the run fail.

The small size's timings are not judged: they only prove that each script fills, measures and prints
its JSON line with every figure its goals name and the same-run COPY rate. Goals live in bench/goals.py.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import connection

from bench import run_all
from bench.goals import BENCHES, Bench, Goal, judge

ROOT = Path(__file__).resolve().parents[2]


def server_url() -> str:
    db = connection.settings_dict
    return f"postgres://{db['USER'] or 'postgres'}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/gotong"


def no_template(database: str) -> str:
    return ""  # the scripts of these tests read no database


def test_judge_reads_each_goal_of_the_bench():
    result = {"items_per_second": 9_999, "peak_mb": 120.5}

    judged = judge("import_items", result)

    assert judged == {
        "goals": {
            "items_per_second": {"goal": ">= 10000", "measured": 9_999, "met": False},
            "peak_mb": {"goal": "< 300.0", "measured": 120.5, "met": True},
        },
        "goals_met": False,
    }


def test_a_missing_figure_is_not_met():
    assert judge("nli_rounds", {"round1_plan_seconds": 1.0, "report_seconds": 1.0})["goals"]["round2_plan_seconds"] == {
        "goal": "< 5.0",
        "measured": None,
        "met": False,
    }


def test_a_bench_that_raises_fails_the_run(tmp_path, capsys):
    (tmp_path / "good.py").write_text('import json\nprint(json.dumps({"seconds": 1.0, "copy_rows_per_second": 5}))\n')
    (tmp_path / "broken.py").write_text('raise RuntimeError("the fill broke")\n')
    benches = (
        Bench("good", "one", (Goal("seconds", "<", 2.0),)),
        Bench("broken", "one", (Goal("seconds", "<", 2.0),)),
    )
    results = tmp_path / "results.jsonl"

    status = run_all.main(
        ["--small", "--results", str(results)], benches=benches, bench_dir=tmp_path, prepare=no_template
    )

    assert status == 1
    lines = [json.loads(line) for line in results.read_text().splitlines()]
    assert [(line["bench"], line["exit_status"], line["result"]) for line in lines] == [
        ("good", 0, {"seconds": 1.0, "copy_rows_per_second": 5}),
        ("broken", 1, None),
    ]
    assert "FAILED to run: broken" in capsys.readouterr().err


def test_a_goal_not_met_fails_the_full_size_run(tmp_path):
    (tmp_path / "slow.py").write_text('import json\nprint(json.dumps({"seconds": 3.0}))\n')
    benches = (Bench("slow", "one", (Goal("seconds", "<", 2.0),)),)

    assert (
        run_all.main(["--results", str(tmp_path / "r.jsonl")], benches=benches, bench_dir=tmp_path, prepare=no_template)
        == 1
    )
    assert (
        run_all.main(
            ["--small", "--results", str(tmp_path / "r.jsonl")],
            benches=benches,
            bench_dir=tmp_path,
            prepare=no_template,
        )
        == 0
    )


@pytest.mark.postgres
@pytest.mark.celery
def test_every_bench_runs_at_its_small_size(tmp_path):
    results = tmp_path / "results.jsonl"
    env = {
        **os.environ,
        "DATABASE_URL": server_url(),
        "REDIS_URL": os.environ.get("GOTONG_TEST_BENCH_REDIS", "redis://127.0.0.1:6379/13"),
    }

    child = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "run_all.py"), "--small", "--results", str(results)],
        capture_output=True,
        text=True,
        env=env,
        timeout=900,
        check=False,
    )

    assert child.returncode == 0, child.stderr[-6000:]
    lines = {line["bench"]: line for line in map(json.loads, results.read_text().splitlines())}
    assert sorted(lines) == sorted(b.name for b in BENCHES)
    for bench in BENCHES:
        result = lines[bench.name]["result"]
        missing = [goal.figure for goal in bench.goals if result.get(goal.figure) is None]
        assert missing == [], f"{bench.name} printed no {missing}"
        assert result["copy_rows_per_second"] > 0, bench.name
