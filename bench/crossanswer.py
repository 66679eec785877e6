"""Cross-answering at scale on PostgreSQL (DATABASE_URL).

Fills a project with 100,000 approved csqa items written by 1,000 annotators, then measures:
- plan_seconds: judging_plan (round 1, csqa's rule) with m = 5 (reads, pure planning, 500,000 slots stored in
  blocks); write_rest_seconds: all of them written into the assignment table at once;
- alpha_seconds: Krippendorff's alpha (nominal, with and without the author) over the 500,000 answers,
  the database read included (qc.reports.alpha_for_project);
- conflicts_seconds: the answerer x creator conflict matrix (qc.reports.conflicts_for_project);
- export_items_per_second / export_peak_mb: qc.exports.gold_export to JSON Lines, each item with its
  five answers, run in a fresh child process so its peak resident memory (VmHWM) is the export's.
Goals (bench/goals.py): planning < 10 s, alpha < 2 s, export >= 20,000 items/s with peak memory < 300 MB.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/gotong_bench5 .venv/bin/python bench/crossanswer.py

The database named in DATABASE_URL is dropped and re-created (its name must contain "bench").
Progress goes to stderr; the last stdout line is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._common import (  # noqa: E402 - the path above makes the repository importable
    copy_rate,
    copy_table,
    database_url_or_exit,
    emit_judged,
    log,
    peak_rss_mb,
    recreate_database,
    setup_django,
    write_planned_blocks,
)

SLUG = "bench-crossanswer"
LABELS = "ABCDE"
CATEGORIES = ["culinary", "place", "culture", "history", "activity"]


def setup_django_without_broker() -> None:
    # Tasks run in-process here even when the shell exports a REDIS_URL: no worker is part of this bench.
    os.environ["REDIS_URL"] = ""
    setup_django()


def fill(*, items: int, annotators: int, seed: int) -> int:
    """Users, memberships, profiles, categories, one concept per item, items with one version. COPY."""
    from django.contrib.auth import get_user_model
    from django.db import connection, transaction
    from django.utils import timezone

    from annotation.models import AnnotatorProfile, Category, Concept, Item, ItemVersion, Membership
    from annotation.services.projects import project_create

    rng = random.Random(seed)
    now = timezone.now()
    user_table = get_user_model()._meta.db_table
    with transaction.atomic():
        admin = get_user_model().objects.create_user(username="bench-admin", password=None)
        project = project_create(
            creator=admin, name="Bench cross-answer", slug=SLUG, task_type="csqa", languages=[{"code": "id"}]
        )
        copy_table(
            user_table,
            [
                "password",
                "is_superuser",
                "username",
                "first_name",
                "last_name",
                "email",
                "is_staff",
                "is_active",
                "date_joined",
            ],
            (("!", False, f"bench-w{n}", "", "", "", False, True, now) for n in range(1, annotators + 1)),
        )
        users = dict(get_user_model().objects.filter(username__startswith="bench-w").values_list("username", "pk"))
        ids = [users[f"bench-w{n}"] for n in range(1, annotators + 1)]
        regions = [f"Region {n % 12}" for n in range(annotators)]
        copy_table(
            Membership._meta.db_table,
            ["project_id", "user_id", "role", "is_active", "is_imported", "code", "group", "countries", "joined_at"],
            ((project.pk, uid, "annotator", True, False, f"W{n + 1}", "", "[]", now) for n, uid in enumerate(ids)),
        )
        membership_of = dict(Membership.objects.filter(project=project).values_list("user_id", "pk"))
        copy_table(
            AnnotatorProfile._meta.db_table,
            ["membership_id", "native_languages", "region", "country", "ethnicity", "education", "screening_answers"],
            ((membership_of[uid], "id", regions[n], "Indonesia", "", "", "{}") for n, uid in enumerate(ids)),
        )
        cats = [Category.objects.create(project=project, name=name) for name in CATEGORIES]
        copy_table(
            Concept._meta.db_table,
            ["project_id", "category_id", "name", "translations"],
            ((project.pk, cats[i % 5].pk, f"konsep {i}", "{}") for i in range(items)),
        )
        concepts = list(Concept.objects.filter(project=project).order_by("pk").values_list("pk", "category_id"))
        copy_table(
            Item._meta.db_table,
            [
                "project_id",
                "task_type",
                "source",
                "status",
                "author_id",
                "concept_id",
                "external_id",
                "status_reason",
                "created_at",
                "updated_at",
            ],
            (
                (project.pk, "csqa", "human", "approved", ids[i % annotators], concepts[i][0], "", "", now, now)
                for i in range(items)
            ),
        )
        item_ids = list(Item.objects.filter(project=project).order_by("pk").values_list("pk", "author_id"))
        copy_table(
            ItemVersion._meta.db_table,
            ["item_id", "number", "payload", "created_by_id", "created_at", "note", "justification", "submitted_at"],
            (
                (
                    pk,
                    1,
                    json.dumps(
                        {
                            "question": f"Apa yang biasanya dilakukan orang saat {i} (konsep {i})?",
                            "choices": [f"Pilihan {label} untuk {i}" for label in LABELS],
                            "answer": LABELS[rng.randrange(5)],
                        }
                    ),
                    author,
                    now,
                    "bench",
                    "",
                    now,
                )
                for i, (pk, author) in enumerate(item_ids)
            ),
        )
        with connection.cursor() as cursor:
            cursor.execute(
                f"UPDATE {Item._meta.db_table} i SET current_version_id = v.id FROM {ItemVersion._meta.db_table} v "
                "WHERE v.item_id = i.id AND i.project_id = %s",
                [project.pk],
            )
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    return project.pk


def answer_everything(project_id: int, seed: int) -> int:
    """Every planned assignment answered: 80% agree with the author, a few flags. COPY + one UPDATE."""
    from django.db import connection, transaction
    from django.db.models.fields.json import KeyTextTransform
    from django.utils import timezone

    from annotation.models import Assignment, Item, Judgment

    rng = random.Random(seed)
    now = timezone.now()
    author_answer = dict(
        Item.objects.filter(project_id=project_id).values_list(
            "pk", KeyTextTransform("answer", "current_version__payload")
        )
    )
    # Read fully before COPY: a COPY holds the connection, so a server-side cursor can't fetch meanwhile.
    rows = list(
        Assignment.objects.filter(project_id=project_id, kind="answer").values_list(
            "pk", "target_item_id", "user_id", "target_author_id"
        )
    )
    clear = json.dumps([False] * 5)

    def judgments():
        for aid, item_id, user_id, author_id in rows:
            answer = author_answer[item_id] if rng.random() < 0.8 else LABELS[rng.randrange(5)]
            flags = (
                f'{{"uncertain": {"true" if rng.random() < 0.1 else "false"}, '
                f'"question_ambiguous": {"true" if rng.random() < 0.02 else "false"}, "option_ambiguous": {clear}}}'
            )
            yield (
                project_id,
                item_id,
                user_id,
                author_id,
                aid,
                "answer",
                f'{{"answer": "{answer}"}}',
                flags,
                "",
                now,
                now,
            )

    with transaction.atomic():
        copy_table(
            Judgment._meta.db_table,
            [
                "project_id",
                "item_id",
                "user_id",
                "item_author_id",
                "assignment_id",
                "kind",
                "value",
                "flags",
                "comment",
                "created_at",
                "updated_at",
            ],
            judgments(),
        )
        with connection.cursor() as cursor:
            cursor.execute(
                f"UPDATE {Assignment._meta.db_table} SET status = 'done', completed_at = %s "
                "WHERE project_id = %s AND kind = 'answer'",
                [now, project_id],
            )
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    return Judgment.objects.filter(project_id=project_id).count()


def timed_plan(project, seed: int):
    """Round 1 of judging (judging_plan: m answerers per item), timed as a whole (commit included), and
    where the time went: the pure planner, the COPY, and the commit (where PostgreSQL checks the deferred
    foreign keys)."""
    from django.db import transaction

    import annotation.services.judging as judging

    parts: dict[str, float] = {}

    def timing(name, function):
        def timed(*args, **kwargs):
            started = time.perf_counter()
            try:
                return function(*args, **kwargs)
            finally:
                parts[name] = round(time.perf_counter() - started, 3)

        return timed

    planner, insert = judging.plan_balanced_columns, judging._insert_judge_assignments
    blocks = judging.planned_blocks_save
    judging.plan_balanced_columns = timing("planner", planner)
    judging._insert_judge_assignments = timing("copy", insert)
    judging.planned_blocks_save = timing("blocks", blocks)
    try:
        started = time.perf_counter()
        with transaction.atomic():  # the service's own atomic block becomes a savepoint: commit timed apart
            plan = judging.judging_plan(project=project, seed=seed)
            committing = time.perf_counter()
        total = time.perf_counter() - started
        parts["commit"] = round(time.perf_counter() - committing, 3)
    finally:
        judging.plan_balanced_columns, judging._insert_judge_assignments = planner, insert
        judging.planned_blocks_save = blocks
    parts["reads_and_rest"] = round(total - sum(parts.values()), 3)
    return plan, total, parts


def export_child(out_dir: str) -> None:
    """Run in a fresh process: export and report its own time and peak resident memory."""
    setup_django_without_broker()
    from annotation.models import Project
    from qc.exports import gold_export

    project = Project.objects.get(slug=SLUG)
    started = time.perf_counter()
    result = gold_export(project=project, fmt="jsonl", out_dir=out_dir)
    seconds = time.perf_counter() - started
    print(json.dumps({"items": result.items, "seconds": seconds, "peak_mb": peak_rss_mb()}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--items", type=int, default=100_000)
    parser.add_argument("--annotators", type=int, default=1_000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--export-child", metavar="DIR", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.export_child:
        export_child(args.export_child)
        return

    recreate_database(database_url_or_exit())
    setup_django_without_broker()
    from django.core.management import call_command

    from annotation.models import Project
    from qc.gold import gold_recompute_project
    from qc.reports import alpha_for_project, conflicts_for_project

    call_command("migrate", interactive=False, verbosity=0)
    started = time.perf_counter()
    project_id = fill(items=args.items, annotators=args.annotators, seed=args.seed)
    fill_seconds = time.perf_counter() - started
    log(f"filled {args.items} items, {args.annotators} annotators in {fill_seconds:.1f}s")
    project = Project.objects.get(pk=project_id)

    plan, plan_seconds, breakdown = timed_plan(project, args.seed)
    log(f"planned {plan.created} answer assignments in {plan_seconds:.2f}s ({breakdown})")
    write_rest_seconds = write_planned_blocks(project.pk)  # the simulated answers below need every row

    answers = answer_everything(project_id, args.seed)
    log(f"answered: {answers} judgments")
    started = time.perf_counter()
    gold = gold_recompute_project(project=project)
    gold_seconds = time.perf_counter() - started
    log(f"gold decisions {gold} in {gold_seconds:.1f}s")

    started = time.perf_counter()
    alpha = alpha_for_project(project=project)
    alpha_seconds = time.perf_counter() - started
    log(f"alpha {alpha} in {alpha_seconds:.2f}s")

    started = time.perf_counter()
    conflicts = conflicts_for_project(project=project)
    conflicts_seconds = time.perf_counter() - started
    total_conflicts = sum(map(sum, conflicts["conflicts"]["counts"]))
    size = len(conflicts["conflicts"]["annotators"])
    log(f"conflict matrix {size}x{size}, {total_conflicts} conflicts, {conflicts_seconds:.2f}s")

    with tempfile.TemporaryDirectory(prefix="gotong-export-") as out:
        child = subprocess.run(
            [sys.executable, __file__, "--export-child", out],
            check=True,
            capture_output=True,
            text=True,
            env={
                **os.environ,
                "DJANGO_SETTINGS_MODULE": os.environ.get("DJANGO_SETTINGS_MODULE", "config.settings.test"),
            },
        )
        export = json.loads(child.stdout.strip().splitlines()[-1])
        export_bytes = sum(p.stat().st_size for p in Path(out).iterdir())
    log(f"exported {export['items']} items in {export['seconds']:.2f}s, peak {export['peak_mb']:.0f} MB")

    result = {
        "items": args.items,
        "annotators": args.annotators,
        "answers": answers,
        "fill_seconds": round(fill_seconds, 2),
        "plan_seconds": round(plan_seconds, 3),
        "write_rest_seconds": round(write_rest_seconds, 3),
        "plan_breakdown": breakdown,
        "gold_seconds": round(gold_seconds, 3),
        "alpha_seconds": round(alpha_seconds, 3),
        "alpha_nominal": alpha["alpha_nominal"],
        "conflicts_seconds": round(conflicts_seconds, 3),
        "export_items_per_second": round(export["items"] / export["seconds"]),
        "export_peak_mb": round(export["peak_mb"], 1),
        "export_mb_written": round(export_bytes / 2**20, 1),
    }
    result["copy_rows_per_second"] = round(copy_rate(answers))
    emit_judged("crossanswer", result)


if __name__ == "__main__":
    main()
