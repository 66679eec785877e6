"""Preference (IndoPref) at scale on PostgreSQL (DATABASE_URL): 5,000 prompts x 5 responses, rated by two
groups of 10 raters (one rater of each group per prompt: 50,000 ratings per criterion), scores seeded.

Measures:
- rows_seconds: the project's report rows read from the database (qc.reports.rows), for reference;
- pairs_seconds: every preference pair derived from the rows (the documented rule);
- alpha_seconds: Krippendorff's alpha, ordinal and interval, for relevance and fluency (groups and all
  raters) and for the pairwise preferences;
- export_rows_per_second / export_peak_mb: the chosen/rejected pair export to JSON Lines (rows read,
  pairs derived, written), in a fresh process so its peak resident memory is its own;
  export_write_rows_per_second: the writing alone, the pairs already derived;
- export_cpu_rows_per_second: the same pairs over the export process's own CPU time (a machine shared with
  other work slows wall-clock figures far more than CPU time);
- copy_rows_per_second: a plain COPY into a scratch table in the same run (the machine's yardstick).
Goals (bench/goals.py): pairs and alpha under 2 s each, export at least 50,000 pairs/s under 300 MB.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/gotong_bench_pref .venv/bin/python bench/preference.py

The database named in DATABASE_URL is dropped and re-created (its name must contain "bench").
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._common import (  # noqa: E402 - the path above makes the repository importable
    copy_rate,
    database_url_or_exit,
    emit_judged,
    log,
    migrate,
    peak_rss_mb,
    recreate_database,
    setup_django,
)

SLUG = "bench-pref"
GROUPS = ("A", "B")
MODELS = ("gemini-1.5-flash", "llama-3.1-8b", "aya-expanse-8b", "gpt-4o-mini", "gpt-4o")
CATEGORIES = (
    "analysis", "brainstorming", "coding", "creative writing", "logic",
    "math", "open question", "safety", "summarization", "translation",
)  # fmt: skip


def fill(*, prompts: int, raters: int, seed: int) -> None:
    from django.contrib.auth import get_user_model
    from django.db import transaction

    from annotation.models import Category, Concept, Item, ItemVersion, Judgment, Membership
    from annotation.services.projects import project_create

    rng = random.Random(seed)
    User = get_user_model()
    with transaction.atomic():
        admin = User.objects.create(username="bench-admin", password="!bench")
        project = project_create(
            creator=admin,
            name="bench preference",
            slug=SLUG,
            task_type="preference",
            languages=[{"code": "id", "name": "Indonesian"}],
        )
        users = {g: [] for g in GROUPS}
        for group in GROUPS:
            for n in range(raters):
                user = User.objects.create(username=f"bench-{group.lower()}{n}", password="!bench")
                Membership.objects.create(
                    project=project, user=user, role="annotator", code=f"{group}{n + 1}", group=group
                )
                users[group].append(user.pk)
        categories = Category.objects.bulk_create([Category(project=project, name=name) for name in CATEGORIES])
        concepts = Concept.objects.bulk_create(
            [Concept(project=project, category=categories[p % len(categories)], name=f"p{p}") for p in range(prompts)],
            batch_size=5000,
        )
        items = Item.objects.bulk_create(
            [
                Item(
                    project=project,
                    task_type="preference",
                    source="import",
                    status="gold",
                    concept=c,
                    external_id=c.name,
                )
                for c in concepts
            ],
            batch_size=5000,
        )
        versions = ItemVersion.objects.bulk_create(
            [
                ItemVersion(
                    item=item,
                    number=1,
                    note="bench",
                    payload={
                        "prompt": f"Pertanyaan nomor {p} tentang topik yang cukup panjang untuk dibaca?",
                        "input": "",
                        "responses": [
                            {
                                "id": f"r{r + 1}",
                                "model": m,
                                "text": f"Jawaban {m} untuk pertanyaan {p}. " * 8,
                                "source": "run",
                            }
                            for r, m in enumerate(MODELS)
                        ],
                    },
                )
                for p, item in enumerate(items)
            ],
            batch_size=5000,
        )
        for item, version in zip(items, versions, strict=True):
            item.current_version = version
        Item.objects.bulk_update(items, ["current_version"], batch_size=5000)
        judgments = []
        for p, item in enumerate(items):
            base = {f"r{r + 1}": rng.randint(2, 5) for r in range(len(MODELS))}
            for group in GROUPS:
                user_id = users[group][p % raters]
                ratings = {
                    rid: {
                        "relevance": max(1, min(5, q + rng.choice((-1, 0, 0, 1)))),
                        "fluency": max(1, min(5, q + rng.choice((-1, 0, 0, 0, 1)))),
                    }
                    for rid, q in base.items()
                }
                order = list(base)
                rng.shuffle(order)
                best = max(ratings, key=lambda rid: ratings[rid]["relevance"] + ratings[rid]["fluency"])
                value = {"ratings": ratings, "best": best, "order": order, "group": group}
                judgments.append(Judgment(project_id=project.pk, item=item, user_id=user_id, kind="rate", value=value))
        Judgment.objects.bulk_create(judgments, batch_size=5000)


def export_child(out_dir: str) -> None:
    setup_django()
    from annotation.models import Project
    from evaluation.task_types.preference.exports import LineEncoder, export_pairs, pairs_by_prompt

    project = Project.objects.get(slug=SLUG)
    started, cpu_started = time.perf_counter(), time.process_time()
    result = export_pairs(project=project, shape="chosen_rejected", fmt="jsonl", folder=Path(out_dir))
    seconds, cpu_seconds = time.perf_counter() - started, time.process_time() - cpu_started
    peak = peak_rss_mb()
    # The writing alone (pairs already derived), for comparison with the end-to-end figure.
    by_prompt = list(pairs_by_prompt(project))
    encoder = LineEncoder("chosen_rejected", "id")
    started = time.perf_counter()
    with (Path(out_dir) / "again.jsonl").open("w", encoding="utf-8") as handle:
        for pairs in by_prompt:
            handle.write(encoder.lines(pairs))
    write_seconds = time.perf_counter() - started
    figures = {"rows": result["rows"], "seconds": seconds, "cpu_seconds": cpu_seconds, "write_seconds": write_seconds}
    print(json.dumps({**figures, "peak_mb": peak}))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--prompts", type=int, default=5000)
    parser.add_argument("--raters", type=int, default=10, help="raters per group")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--export-child", default="")
    args = parser.parse_args()
    if args.export_child:
        export_child(args.export_child)
        return
    recreate_database(database_url_or_exit())
    setup_django()
    migrate()
    started = time.perf_counter()
    fill(prompts=args.prompts, raters=args.raters, seed=args.seed)
    log(f"filled {args.prompts} prompts in {time.perf_counter() - started:.1f}s")

    from annotation.models import Project
    from annotation.task_types.preference.reports import agreement_figures, all_pairs, prompts_from_rows
    from qc.reports.rows import report_rows

    project = Project.objects.get(slug=SLUG)
    started = time.perf_counter()
    rows = report_rows(project=project)
    rows_seconds = time.perf_counter() - started
    prompts = prompts_from_rows(rows)
    started = time.perf_counter()
    pairs, ties = all_pairs(prompts, rows.settings)
    pairs_seconds = time.perf_counter() - started
    started = time.perf_counter()
    figures = agreement_figures(prompts)
    alpha_seconds = time.perf_counter() - started
    log(f"{len(pairs)} pairs ({ties} ties) in {pairs_seconds:.2f}s; alpha in {alpha_seconds:.2f}s: {figures}")

    with tempfile.TemporaryDirectory() as out:
        child = subprocess.run(
            [sys.executable, __file__, "--export-child", out], capture_output=True, text=True, check=True
        )
    export = json.loads(child.stdout.strip().splitlines()[-1])
    log(f"exported {export['rows']} pairs in {export['seconds']:.2f}s, peak {export['peak_mb']:.0f} MB")
    rate = copy_rate(len(pairs) + 2 * args.prompts)
    result = {
        "prompts": args.prompts,
        "ratings_per_criterion": sum(len(v["ratings"]) for p in prompts for v in p.ratings),
        "pairs": len(pairs),
        "rows_seconds": round(rows_seconds, 3),
        "pairs_seconds": round(pairs_seconds, 3),
        "alpha_seconds": round(alpha_seconds, 3),
        "export_rows_per_second": round(export["rows"] / export["seconds"]),
        # this process's CPU time alone (the database's work not counted): steadier on a shared machine
        "export_cpu_rows_per_second": round(export["rows"] / export["cpu_seconds"]),
        "export_peak_mb": round(export["peak_mb"], 1),
        "export_write_rows_per_second": round(export["rows"] / export["write_seconds"]),
        "copy_rows_per_second": round(rate),
    }
    emit_judged("preference", result)


if __name__ == "__main__":
    main()
