"""The generic import engine at scale on PostgreSQL (DATABASE_URL).

Writes an id-csqa HUMAN_GEN file (the published JSON array form) of 100,000 questions by six
annotators W1..W6, each answered by the five who did not write it (500,000 answers with their flags
and reasons), then imports it with `items_import(format="id-csqa")` in a fresh child process, so the
import's own peak resident memory (VmHWM) is measured. The import includes everything the command does:
two streamed passes over the file, the gold decisions, COPY of items, versions, answers and decisions,
and the commit. Then the child does what a worker does after the commit: it puts the new versions into
the search indexes (annotation.search_index; `search_index_seconds`, timed apart, no goal).
For scale, the same run also times a plain COPY of as many rows (items + answers) into a scratch table.
Goals (bench/goals.py): at least 10,000 items/s (with their answers) and a peak under 300 MB.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/gotong_bench_import .venv/bin/python bench/import_items.py

The database named in DATABASE_URL is dropped and re-created (its name must contain "bench").
Progress goes to stderr; the last stdout line is one JSON object.
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

from bench._common import (  # noqa: E402
    copy_rate,
    database_url_or_exit,
    emit_judged,
    log,
    migrate,
    peak_rss_mb,
    queue_background_tasks,
    recreate_database,
    setup_django,
)

SLUG = "bench-import"
CODES = [f"W{n}" for n in range(1, 7)]
LABELS = "ABCDE"
CATEGORIES = ["culinary", "place", "culture", "history", "activity"]


def write_file(path: Path, *, items: int, seed: int) -> int:
    """An id-csqa JSON array of `items` rows; returns the number of answers written."""
    rng = random.Random(seed)
    answers = 0
    with path.open("w", encoding="utf-8") as out:
        out.write("[\n")
        for i in range(items):
            author = CODES[i % len(CODES)]
            answerers = [c for c in CODES if c != author]
            creator = LABELS[rng.randrange(5)]
            given = {c: creator if rng.random() < 0.8 else LABELS[rng.randrange(5)] for c in answerers}
            answers += len(given)
            row = {
                "id": f"q{i:06d}",
                "category": CATEGORIES[i % len(CATEGORIES)],
                "question_concept": f"konsep {i % 5000}",
                "question": f"Pertanyaan nomor {i} tentang konsep {i % 5000} yang cukup panjang?",
                "choices": {"label": list(LABELS), "text": [f"pilihan {k} untuk {i}" for k in LABELS]},
                "answer_creator": creator,
                "answer_majority": None,
                "answers": given,
                "answers_uncertainty": {c: "uncertain" if rng.random() < 0.1 else "certain" for c in answerers},
                "question_ambiguity": {c: "ambiguous" if rng.random() < 0.05 else "clear" for c in answerers},
                "option_ambiguity": {c: ["clear"] * 5 for c in answerers},
                "reason": {c: "" if rng.random() < 0.9 else "[uncertain] kurang yakin" for c in answerers},
            }
            out.write(("," if i else "") + json.dumps(row, ensure_ascii=False) + "\n")
        out.write("]\n")
    return answers


def import_child(path: str) -> None:
    """Run in a fresh process: import the file and report its own time and peak resident memory."""
    setup_django()
    queue_background_tasks()
    from django.db import transaction

    from annotation.importing import engine
    from annotation.search_index import index_waiting_versions
    from annotation.services import imports

    gold_seconds = 0.0
    decide_batch = engine.GoldDecider.decide_batch

    def timed_decide(self, records, judgment_ids):
        nonlocal gold_seconds
        started = time.perf_counter()
        try:
            return decide_batch(self, records, judgment_ids)
        finally:
            gold_seconds += time.perf_counter() - started

    engine.GoldDecider.decide_batch = timed_decide
    started = time.perf_counter()
    # The outer block only splits the time: the commit is where PostgreSQL would check deferred foreign
    # keys row by row; the import checks them once itself (annotation/foreign_keys.py), so it is short
    # unless the database role may not switch the per-row checks off.
    with transaction.atomic():
        summary = imports.items_import(path_or_bytes=path, project_slug=SLUG, format="id-csqa", language="id")
        before_commit = time.perf_counter()
    seconds = time.perf_counter() - started
    # What a worker does after the commit (annotation.search_index): the versions into the search indexes.
    indexing_started = time.perf_counter()
    indexed = index_waiting_versions()
    search_index_seconds = time.perf_counter() - indexing_started
    print(
        json.dumps(
            {
                "items": summary.items_created,
                "answers": summary.judgments_created,
                "indexed": indexed,
                "search_index_seconds": search_index_seconds,
                "seconds": seconds,
                "gold_seconds": gold_seconds,
                "commit_seconds": seconds - (before_commit - started),
                "peak_mb": peak_rss_mb(),
            }
        )
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--items", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--import-child", metavar="FILE", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.import_child:
        import_child(args.import_child)
        return

    url = database_url_or_exit()
    recreate_database(url)
    setup_django()
    migrate()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "human_gen.json"
        started = time.perf_counter()
        answers = write_file(path, items=args.items, seed=args.seed)
        size_mb = path.stat().st_size / 2**20
        log(f"wrote {args.items} items, {answers} answers ({size_mb:.0f} MB) in {time.perf_counter() - started:.1f}s")
        child = subprocess.run(
            [sys.executable, __file__, "--import-child", str(path)], capture_output=True, text=True, check=False
        )
        if child.returncode != 0:
            sys.exit(f"the import failed:\n{child.stderr[-4000:]}")
        result = json.loads(child.stdout.strip().splitlines()[-1])
    log(f"imported {result['items']} items, {result['answers']} answers in {result['seconds']:.1f}s")
    rate = copy_rate(result["items"] + result["answers"])
    log(f"plain COPY: {rate:,.0f} rows/s")
    seconds = result["seconds"]
    figures = {
        "items": result["items"],
        "answers": result["answers"],
        "file_mb": round(size_mb, 1),
        "seconds": round(seconds, 2),
        # Of which deciding the new items' gold (inline, the task type's gold_decide per item) and the
        # commit (deferred foreign-key checks, if any were left to it); the rest is reading and writing.
        "gold_seconds": round(result["gold_seconds"], 2),
        "commit_seconds": round(result["commit_seconds"], 2),
        "items_per_second_without_gold": round(result["items"] / (seconds - result["gold_seconds"])),
        "items_per_second": round(result["items"] / seconds),
        "answers_per_second": round(result["answers"] / seconds),
        "peak_mb": round(result["peak_mb"], 1),
        # After the import, on a worker: its versions put into the search indexes (no goal; search finds
        # them meanwhile, reading them one by one).
        "search_indexed": result["indexed"],
        "search_index_seconds": round(result["search_index_seconds"], 2),
        "copy_rows_per_second": round(rate),
    }
    emit_judged("import_items", figures)


if __name__ == "__main__":
    main()
