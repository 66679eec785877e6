"""Judging at the real shape: big per-judge queues, then plans, gold, the report and item lists at 100,000 items.

Run (PostgreSQL only; the database is dropped and re-created, its name must contain "bench"):

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/gotong_bench9 .venv/bin/python bench/judge_loop.py

Options (defaults in brackets): --items [100000] --small [1000] --annotators [6] --clients [6]
--pairs [100 next+submit pairs per client and size] --server-workers [number of CPUs].

For each size (--items, then --small) it fills a csqa project with that many approved items written by
--annotators annotators (one concept and one version each, COPY), plans judging round 1 with the task
type's rule (m = 5: every item to the five annotators who did not write it, so each judge holds about
5/6 of the items as open assignments) and times it. Then --clients clients, one per annotator, answer
through the REST API as a judge's browser would (`POST /api/projects/{slug}/judgments/next/`, then
`POST /api/projects/{slug}/judgments/{id}/`), each request served by forked worker processes as
gunicorn's sync workers serve them (bench/_server.py: server time measured inside the worker, the
queries counted as django_assert_num_queries counts them).

At the big size only, afterwards:
- plan_copy_ratio: plan_seconds / the time of a plain COPY of as many rows (assignment-shaped, into a
  scratch table without indexes) in the same run; copy_rows_per_second is that COPY's rate;
- blocks_left / write_rest_seconds: a big plan stores its slots in blocks, written into the assignment
  table as the judges reach them (annotation.services.planned_blocks); the blocks the loop left, and the
  time to write them all at once (so the rows can be answered below);
- every remaining assignment answered (COPY), then gold_seconds: qc.gold.gold_recompute_project;
- report_seconds / report_peak_mb: the report's build in a fresh child process, as the background worker
  builds it for a project this big (qc.reports.snapshots: rows, the task type's sections, the snapshot
  saved), its peak resident memory (VmHWM); report_page_p95_ms: the report page as the admin afterwards
  (GET /p/{slug}/report/, served from the snapshot);
- first_page_p95_ms / deep_page_p95_ms: the item list page as the admin, 30 rows a page, the first
  page and page 3000 (rows 89,971-90,000), 20 requests each.

The last stdout line is one JSON object (goals, bench/goals.py: next p95 < 20 ms, submit p95 < 30 ms (also on an
adaptive project of the small size, where a submit may plan the next judge), size_ratio <= 1.5,
plan_copy_ratio <= 5, gold < 3 s, report < 2 s and < 300 MB, deep page within 1.5x the first).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._common import (  # noqa: E402
    MODEL_BACKEND,
    UNUSABLE_PASSWORD,
    copy_rows,
    database_url_or_exit,
    emit_judged,
    log,
    log_in,
    migrate,
    peak_rss_mb,
    percentile,
    recreate_database,
    run_threads,
    setup_django,
    write_planned_blocks,
)

LABELS = "ABCDE"
CATEGORIES = ["culinary", "place", "culture", "history", "activity"]
LIST_PAGE = 30
DEEP_PAGE = 3000


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--items", type=int, default=100_000)
    parser.add_argument("--small", type=int, default=1_000)
    parser.add_argument("--annotators", type=int, default=6)
    parser.add_argument("--clients", type=int, default=6)
    parser.add_argument("--pairs", type=int, default=100, help="next+submit pairs per client and size")
    parser.add_argument("--server-workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--report-child", metavar="SLUG", help=argparse.SUPPRESS)
    return parser.parse_args()


@dataclass
class Filled:
    project: object
    admin_id: int
    annotator_ids: list[int]


def fill(*, slug: str, items: int, annotators: int, seed: int, judging_mode: str = "fixed") -> Filled:
    """Users, memberships, profiles, categories, one concept per item, approved items with one version."""
    from django.contrib.auth import get_user_model
    from django.db import connection, transaction
    from django.utils import timezone

    from annotation.models import AnnotatorProfile, Category, Concept, Item, ItemVersion, Membership, Project
    from annotation.services.projects import project_create

    rng = random.Random(seed)
    user_model = get_user_model()
    now = timezone.now()
    with transaction.atomic():
        admin = user_model.objects.create(username=f"{slug}-admin", password=UNUSABLE_PASSWORD)
        project = project_create(
            creator=admin,
            name=f"Bench {slug}",
            slug=slug,
            task_type="csqa",
            languages=[{"code": "id"}],
            judging_mode=judging_mode,
        )
        # In production the aggregation model is fitted on a Celery worker, never on a request; this bench
        # has no broker, so a fit would run inside a submit (in the process) and be timed as one.
        Project.objects.filter(pk=project.pk).update(aggregation_model="off")
        user_fields = ["password", "is_superuser", "username", "first_name", "last_name", "email", "is_staff"]
        copy_rows(
            user_model,
            [*user_fields, "is_active", "date_joined"],
            ((UNUSABLE_PASSWORD, False, f"{slug}-w{n:03d}", "", "", "", False, True, now) for n in range(annotators)),
        )
        ids = list(
            user_model.objects.filter(username__startswith=f"{slug}-w")
            .order_by("username")
            .values_list("pk", flat=True)
        )
        copy_rows(
            Membership,
            ["project", "user", "role", "is_active", "is_imported", "code", "group", "countries", "joined_at"],
            ((project.pk, uid, "annotator", True, False, f"W{n + 1}", "", "[]", now) for n, uid in enumerate(ids)),
        )
        membership_of = dict(Membership.objects.filter(project=project, role="annotator").values_list("user_id", "pk"))
        copy_rows(
            AnnotatorProfile,
            ["membership", "native_languages", "region", "country", "ethnicity", "education", "screening_answers"],
            ((membership_of[uid], "id", f"Region {n % 3}", "Indonesia", "", "", "{}") for n, uid in enumerate(ids)),
        )
        cats = [Category.objects.create(project=project, name=name) for name in CATEGORIES]
        copy_rows(
            Concept,
            ["project", "category", "name", "translations"],
            ((project.pk, cats[i % 5].pk, f"konsep {i}", "{}") for i in range(items)),
        )
        concepts = list(Concept.objects.filter(project=project).order_by("pk").values_list("pk", flat=True))
        copy_rows(
            Item,
            [
                "project",
                "task_type",
                "source",
                "status",
                "author",
                "concept",
                "external_id",
                "status_reason",
                "created_at",
                "updated_at",
            ],
            (
                (project.pk, "csqa", "human", "approved", ids[i % annotators], concepts[i], "", "", now, now)
                for i in range(items)
            ),
        )
        item_rows = list(Item.objects.filter(project=project).order_by("pk").values_list("pk", "author_id"))
        copy_rows(
            ItemVersion,
            ["item", "number", "payload", "created_by", "created_at", "note", "justification", "submitted_at"],
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
                for i, (pk, author) in enumerate(item_rows)
            ),
        )
        with connection.cursor() as cursor:
            cursor.execute(
                f"UPDATE {Item._meta.db_table} i SET current_version_id = v.id FROM {ItemVersion._meta.db_table} v "
                "WHERE v.item_id = i.id AND i.project_id = %s",
                [project.pk],
            )
    analyze()
    return Filled(project=project, admin_id=admin.pk, annotator_ids=ids)


def analyze() -> None:
    # Bulk-loaded tables have no statistics yet (autovacuum would gather them within a minute); VACUUM
    # sets the visibility map as it would, so index-only scans behave as on a settled database.
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")


def timed_plan(project) -> tuple[int, float]:
    from annotation.services.judging import judging_plan

    started = time.perf_counter()
    summary = judging_plan(project=project)
    return summary.created, time.perf_counter() - started


def copy_seconds(rows: int) -> float:
    """A plain COPY of `rows` assignment-shaped rows into a scratch table without indexes."""
    from django.db import connection, transaction

    line = "{}\t1\t{}\tanswer\t1\t{}\t{}\tpending\t{}\t2026-11-24T00:00:00+00:00\n"
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(
            "CREATE TEMP TABLE bench_scratch (id bigint, project bigint, person bigint, kind varchar(20), "
            "round smallint, item bigint, author bigint, status varchar(20), position integer, "
            "created_at timestamptz)"
        )
        started = time.perf_counter()
        with cursor.copy(
            "COPY bench_scratch (id, project, person, kind, round, item, author, status, position, created_at) "
            "FROM STDIN"
        ) as copy:
            for start in range(0, rows, 5000):
                copy.write(
                    "".join(line.format(n, n % 6, n // 5, n % 7, n) for n in range(start, min(rows, start + 5000)))
                )
        seconds = time.perf_counter() - started
        cursor.execute("DROP TABLE bench_scratch")
    return seconds


@dataclass
class Sample:
    endpoint: str
    server_ms: float
    queries: int


def judge_loop(*, slug: str, annotator_ids: list[int], clients: int, pairs: int, workers: int) -> list[Sample]:
    """`clients` judges (one annotator each) answer `pairs` items each through the API, at once."""
    from bench._server import ProcessServer

    judges = annotator_ids[:clients]
    sessions = log_in(judges)
    server = ProcessServer(workers, len(judges))
    samples: list[list[Sample]] = [[] for _ in judges]
    rng = random.Random(len(judges))
    answers = [rng.choice(LABELS) for _ in range(pairs)]

    def client(index: int) -> None:
        session = sessions[judges[index]]
        for n in range(pairs):
            task = server.post(index, session, f"/api/projects/{slug}/judgments/next/", {})
            if task.status == 204:
                return
            if task.status != 200:
                raise RuntimeError(f"next answered {task.status}: {task.data}")
            samples[index].append(Sample("next", task.server_ms, task.queries))
            done = server.post(
                index, session, f"/api/projects/{slug}/judgments/{task.data['id']}/", {"answer": answers[n]}
            )
            if done.status != 200:
                raise RuntimeError(f"submit answered {done.status}: {done.data}")
            samples[index].append(Sample("submit", done.server_ms, done.queries))

    try:
        run_threads([lambda i=i: client(i) for i in range(len(judges))], connect=False)
    finally:
        server.close()
    return [s for group in samples for s in group]


def summarize(samples: list[Sample]) -> dict:
    out: dict = {
        "requests": len(samples),
        "queries_per_request": round(statistics.fmean(s.queries for s in samples), 2),
    }
    for name in ("next", "submit"):
        group = [s for s in samples if s.endpoint == name]
        times = sorted(s.server_ms for s in group)
        out[f"{name}_p50_ms"] = round(percentile(times, 50), 2)
        out[f"{name}_p95_ms"] = round(percentile(times, 95), 2)
        out[f"{name}_max_ms"] = round(times[-1], 2)  # a next that wrote planned blocks shows here
        out[f"{name}_queries"] = sorted({s.queries for s in group})
    return out


def answer_the_rest(project_id: int, seed: int) -> int:
    """Every open judge assignment answered (80% agreeing with the author): COPY + one UPDATE."""
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
    rows = list(
        Assignment.objects.filter(project_id=project_id, kind="answer")
        .exclude(status="done")
        .values_list("pk", "target_item_id", "user_id", "target_author_id")
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
        copy_rows(
            Judgment,
            ["project", "item", "user", "item_author", "assignment", "kind", "value", "flags", "comment"]
            + ["created_at", "updated_at"],
            judgments(),
        )
        with connection.cursor() as cursor:
            cursor.execute(
                f"UPDATE {Assignment._meta.db_table} SET status = 'done', completed_at = %s, lease_expires_at = NULL "
                "WHERE project_id = %s AND kind = 'answer' AND status <> 'done'",
                [now, project_id],
            )
    analyze()
    return Judgment.objects.filter(project_id=project_id).count()


def report_child(slug: str) -> None:
    """In a fresh process: build the report as the background worker builds it (the whole path: rows,
    the task type's sections, the snapshot saved), its time and peak memory."""
    setup_django()
    from annotation.models import Project
    from qc.reports.snapshots import report_snapshot_build

    project = Project.objects.get(slug=slug)
    started = time.perf_counter()
    snapshot = report_snapshot_build(project_id=project.pk)
    seconds = time.perf_counter() - started
    print(json.dumps({"seconds": seconds, "peak_mb": peak_rss_mb(), "judgments": snapshot.judgments}))


def report_page_ms(slug: str, admin_id: int, repeat: int = 10) -> float:
    """p95 of the report page as the admin once the snapshot is built (what a reader waits for; a
    project under GOTONG_REPORT_INLINE_JUDGMENTS builds it on the request)."""
    from django.contrib.auth import get_user_model
    from django.test import Client

    client = Client()
    client.force_login(get_user_model().objects.get(pk=admin_id), backend=MODEL_BACKEND)
    client.get(f"/p/{slug}/report/")  # warm (imports, templates), as list_pages does
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        response = client.get(f"/p/{slug}/report/")
        times.append((time.perf_counter() - started) * 1000)
        if response.status_code != 200 or b'id="report-building"' in response.content:
            raise RuntimeError(f"the report page answered {response.status_code} without its report")
    return round(percentile(sorted(times), 95), 2)


def list_pages(*, slug: str, admin_id: int, repeat: int = 20) -> dict:
    """p95 of the item list page as the admin: the first page and page 3000, 30 rows a page."""
    from django.contrib.auth import get_user_model
    from django.test import Client

    client = Client()
    client.force_login(get_user_model().objects.get(pk=admin_id), backend=MODEL_BACKEND)
    out = {}
    for name, page in (("first_page", 1), ("deep_page", DEEP_PAGE)):
        path = f"/p/{slug}/items/?per_page={LIST_PAGE}&page={page}"
        client.get(path)  # warm
        times = []
        for _ in range(repeat):
            started = time.perf_counter()
            response = client.get(path)
            times.append((time.perf_counter() - started) * 1000)
            if response.status_code != 200:
                raise RuntimeError(f"{path} answered {response.status_code}")
        out[f"{name}_p95_ms"] = round(percentile(sorted(times), 95), 2)
        out[f"{name}_rows"] = response.content.count(b'<tr id="item-')
    return out


def run_size(args, items: int, *, big: bool, judging_mode: str = "fixed") -> dict:
    from annotation.models import Project

    slug = f"bench-judge-{judging_mode}-{items}-{int(time.time())}"
    started = time.perf_counter()
    filled = fill(slug=slug, items=items, annotators=args.annotators, seed=args.seed, judging_mode=judging_mode)
    log(f"{slug}: filled {items} items in {time.perf_counter() - started:.1f} s")
    created, plan_seconds = timed_plan(filled.project)
    log(f"{slug}: planned {created} assignments in {plan_seconds:.2f} s")
    analyze()
    samples = judge_loop(
        slug=slug,
        annotator_ids=filled.annotator_ids,
        clients=args.clients,
        pairs=args.pairs,
        workers=args.server_workers,
    )
    result = {"items": items, "assignments": created, "plan_seconds": round(plan_seconds, 3), **summarize(samples)}
    log(f"{slug}: {result}")
    if not big:
        return result

    seconds = copy_seconds(created)
    result["copy_rows_per_second"] = round(created / seconds)
    result["plan_copy_ratio"] = round(plan_seconds / seconds, 2)
    # A big plan leaves most of its slots in blocks, written as the judges reach them (the loop above
    # wrote the first ones). Writing all the rest at once shows what that deferred part costs in total.
    from annotation.models import Assignment, PlannedBlock

    result["blocks_left"] = PlannedBlock.objects.filter(project_id=filled.project.pk).count()
    result["write_rest_seconds"] = round(write_planned_blocks(filled.project.pk), 3)
    result["assignment_rows"] = Assignment.objects.filter(project_id=filled.project.pk).count()
    log(f"{slug}: {result['blocks_left']} blocks written in {result['write_rest_seconds']} s")
    answers = answer_the_rest(filled.project.pk, args.seed)
    log(f"{slug}: {answers} judgments")
    from qc.gold import gold_recompute_project

    project = Project.objects.get(pk=filled.project.pk)
    started = time.perf_counter()
    gold = gold_recompute_project(project=project)
    result["gold_seconds"] = round(time.perf_counter() - started, 3)
    log(f"{slug}: gold {gold} in {result['gold_seconds']} s")
    analyze()
    child = subprocess.run(
        [sys.executable, __file__, "--report-child", slug], check=True, capture_output=True, text=True, env=os.environ
    )
    report = json.loads(child.stdout.strip().splitlines()[-1])
    result["report_seconds"] = round(report["seconds"], 3)
    result["report_peak_mb"] = round(report["peak_mb"], 1)
    log(f"{slug}: report {report}")
    result["report_page_p95_ms"] = report_page_ms(slug, filled.admin_id)
    result.update(list_pages(slug=slug, admin_id=filled.admin_id))
    result["judgments"] = answers
    return result


def main() -> None:
    args = parse_args()
    if args.report_child:
        report_child(args.report_child)
        return
    load_at_start = round(os.getloadavg()[0], 2)
    url = database_url_or_exit()
    recreate_database(url)
    setup_django()
    migrate()
    big = run_size(args, args.items, big=True)
    small = run_size(args, args.small, big=False)
    # The same loop on an adaptive project of the small size (annotation.adaptive): round 1 plans two
    # judges per item, and a submit that leaves its item unsure plans the next judge in its transaction.
    # The clients' answers are random, so most items are unsure: the planning submit is the common case.
    adaptive = run_size(args, args.small, big=False, judging_mode="adaptive")
    result = {
        "next_p95_ms": big["next_p95_ms"],
        "submit_p95_ms": big["submit_p95_ms"],
        "queries_per_request": {
            str(args.items): big["queries_per_request"],
            str(args.small): small["queries_per_request"],
        },
        "size_ratio": round(
            max(big["next_p95_ms"] / small["next_p95_ms"], big["submit_p95_ms"] / small["submit_p95_ms"]), 2
        ),
        "plan_seconds": big["plan_seconds"],
        "plan_copy_ratio": big["plan_copy_ratio"],
        "copy_rows_per_second": big["copy_rows_per_second"],
        "next_max_ms": big["next_max_ms"],
        "blocks_left": big["blocks_left"],
        "write_rest_seconds": big["write_rest_seconds"],
        "gold_seconds": big["gold_seconds"],
        "report_seconds": big["report_seconds"],
        "report_peak_mb": big["report_peak_mb"],
        "report_page_p95_ms": big["report_page_p95_ms"],
        "first_page_p95_ms": big["first_page_p95_ms"],
        "deep_page_p95_ms": big["deep_page_p95_ms"],
        "deep_page_ratio": round(big["deep_page_p95_ms"] / big["first_page_p95_ms"], 2),
        "adaptive_submit_p95_ms": adaptive["submit_p95_ms"],
        "adaptive_queries_per_request": adaptive["queries_per_request"],
        "big": big,
        "small": small,
        "adaptive": adaptive,
        "server_workers": args.server_workers,
        "load_average_1m": round(os.getloadavg()[0], 2),
        "load_average_1m_at_start": load_at_start,
    }
    emit_judged("judge_loop", result)


if __name__ == "__main__":
    main()
