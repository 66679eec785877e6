"""Authoring at scale: fill a project, plan authoring (k = 2), then next-assignment + submit under load.

Run (PostgreSQL only; the database is migrated first if needed):

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/gotong_bench .venv/bin/python bench/annotate_loop.py

Options (defaults in brackets): --annotators [1000] --concepts [100000] --clients [32]
--requests [3200] --server-workers [number of CPUs] --recreate-db.
Each run makes a new project `bench-<annotators>x<concepts>-<time>` with its own users, so earlier runs
are never touched; --recreate-db drops and re-creates the database first (refused unless its name
contains "bench"), for a clean, repeatable measurement.

What it does:
1. Fills the project with COPY: annotators (no usable password: sessions come from force_login),
   memberships, profiles, 5 categories and the concepts spread evenly over them.
2. Plans authoring with `assignment_plan_authoring` and times it (`plan_seconds`).
3. Logs every annotator the clients will use in (a session each), then runs `--clients` threads at once.
   Each works through one annotator's queue after another with
   `POST /api/projects/{slug}/assignments/next/` and `POST /api/projects/{slug}/assignments/{id}/submit/`
   until `--requests` requests are made. The mix is always one next per submit, so queries per
   request compare between project sizes.

Server time per request is `time.perf_counter()` around Django's test `client.post`: the whole request
(middleware, session, auth, view, services, SQL), with the queries counted as
`django_assert_num_queries` counts them (BEGIN/COMMIT included). The requests are served the way the
deployment serves them (docker/: gunicorn sync workers): `--server-workers` forked processes each
handle one request at a time, and the 32 clients' requests wait in a queue for a free one; that wait
is reported apart as `client_p50_ms`/`client_p95_ms`. The default is one worker per CPU: on a 2-CPU
machine that also runs PostgreSQL, a third worker lowers throughput and only adds CPU contention to
every request. With `--server-workers 0` every client thread runs Django itself inside this one
process, so server time then also includes waiting for the GIL behind the 31 other clients.

Prints progress to stderr and, as the last stdout line, one JSON object with `plan_seconds`, `p50_ms`,
`p95_ms`, `p99_ms`, `queries_per_request` (mean over all requests) and details.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import threading
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._common import (  # noqa: E402
    UNUSABLE_PASSWORD,
    copy_rate,
    copy_rows,
    database_url_or_exit,
    emit_judged,
    log,
    log_in,
    migrate,
    percentile,
    recreate_database,
    run_threads,
    setup_django,
)

CATEGORIES = ["culinary", "place", "culture", "history", "activity"]
CHOICES = ["Di pasar", "Di sawah", "Di laut", "Di gunung", "Di kota"]


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--annotators", type=int, default=1000)
    parser.add_argument("--concepts", type=int, default=100_000)
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--requests", type=int, default=3200, help="total requests (half next, half submit)")
    parser.add_argument("--server-workers", type=int, default=os.cpu_count() or 1, help="0: in-process threads")
    parser.add_argument("--recreate-db", action="store_true")
    return parser.parse_args()


@dataclass
class Filled:
    project: object
    annotator_ids: list[int]
    seconds: float


def fill(*, slug: str, annotators: int, concepts: int) -> Filled:
    from django.contrib.auth import get_user_model
    from django.db import transaction
    from django.utils import timezone

    from annotation.models import AnnotatorProfile, Category, Concept, Membership
    from annotation.services.projects import project_create

    user_model = get_user_model()
    started = time.perf_counter()
    now = timezone.now()
    with transaction.atomic():
        admin = user_model.objects.create(username=f"{slug}-admin", password=UNUSABLE_PASSWORD)
        project = project_create(
            creator=admin,
            name=f"Bench {slug}",
            slug=slug,
            task_type="csqa",
            languages=[{"code": "id", "name": "Indonesian"}],
            authors_per_concept=2,
        )
        user_fields = ["password", "is_superuser", "username", "first_name", "last_name", "email", "is_staff"]
        copy_rows(
            user_model,
            [*user_fields, "is_active", "date_joined"],
            ((UNUSABLE_PASSWORD, False, f"{slug}-a{i:06d}", "", "", "", False, True, now) for i in range(annotators)),
        )
        annotator_ids = list(
            user_model.objects.filter(username__startswith=f"{slug}-a0")
            .order_by("username")
            .values_list("id", flat=True)
        )
        copy_rows(
            Membership,
            ["project", "user", "role", "is_active", "is_imported", "code", "group", "countries", "joined_at"],
            (
                (project.pk, uid, "annotator", True, False, f"W{i + 1}", "", "[]", now)
                for i, uid in enumerate(annotator_ids)
            ),
        )
        membership_of = dict(Membership.objects.filter(project=project).values_list("user_id", "pk"))
        copy_rows(
            AnnotatorProfile,
            ["membership", "native_languages", "region", "country", "ethnicity", "education", "screening_answers"],
            (
                (membership_of[uid], "id", f"Region {i % 20}", "Indonesia", "", "", "{}")
                for i, uid in enumerate(annotator_ids)
            ),
        )
        categories = Category.objects.bulk_create(Category(project=project, name=name) for name in CATEGORIES)
        per_category = -(-concepts // len(categories))
        copy_rows(
            Concept,
            ["project", "category", "name", "translations"],
            ((project.pk, categories[i // per_category].pk, f"konsep{i:06d}", "{}") for i in range(concepts)),
        )
    seconds = time.perf_counter() - started
    log(f"filled {slug}: {annotators} annotators, {concepts} concepts in {len(categories)} categories, {seconds:.1f} s")
    return Filled(project=project, annotator_ids=annotator_ids, seconds=seconds)


@dataclass
class ClientPlan:
    """The annotators one client works for, in order, and how many next+submit pairs it makes."""

    annotators: list[int] = field(default_factory=list)
    pairs: int = 0


def plan_clients(*, project, annotator_ids: list[int], clients: int, pairs: int) -> list[ClientPlan]:
    from django.db.models import Count

    from annotation.models import Assignment

    queue = dict(
        Assignment.objects.filter(project=project, kind=Assignment.Kind.AUTHOR, status=Assignment.Status.PENDING)
        .values_list("user_id")
        .annotate(n=Count("id"))
        .order_by()
    )
    plans = [ClientPlan() for _ in range(clients)]
    for i, uid in enumerate(annotator_ids):
        plans[i % clients].annotators.append(uid)
    for i, plan in enumerate(plans):
        wanted = pairs // clients + (1 if i < pairs % clients else 0)
        plan.pairs = min(wanted, sum(queue.get(uid, 0) for uid in plan.annotators))
        reach, kept = 0, []
        for uid in plan.annotators:
            if reach >= plan.pairs:
                break
            kept.append(uid)
            reach += queue.get(uid, 0)
        plan.annotators = kept
    short = pairs - sum(p.pairs for p in plans)
    if short:
        log(f"only {pairs - short} next+submit pairs are available to the clients ({short} fewer than asked)")
    return plans


def analyze() -> None:
    # Bulk-loaded tables have no statistics yet; autovacuum would gather them within a minute.
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")


def payload(concept: str) -> dict:
    return {"question": f"Di mana orang biasanya menemukan {concept}?", "choices": CHOICES, "answer": "A"}


@dataclass
class Sample:
    endpoint: str
    server_ms: float
    client_ms: float
    queries: int


class Driver:
    def __init__(self, *, slug: str, plans: list[ClientPlan], sessions: dict[int, str], server) -> None:
        self.slug, self.plans, self.sessions, self.server = slug, plans, sessions, server
        self.samples: list[list[Sample]] = [[] for _ in plans]
        self.done = 0
        self.lock = threading.Lock()

    def _post(self, index: int, uid: int, endpoint: str, path: str, body: dict):
        sent = time.perf_counter()
        answer = self.server.post(index, self.sessions[uid], path, body)
        client_ms = (time.perf_counter() - sent) * 1000
        if answer.status == 200:
            self.samples[index].append(Sample(endpoint, answer.server_ms, client_ms, answer.queries))
            with self.lock:
                self.done += 1
                if self.done % 500 == 0:
                    log(f"{self.done} requests")
        return answer

    def client(self, index: int) -> None:
        plan, left = self.plans[index], self.plans[index].pairs
        next_path = f"/api/projects/{self.slug}/assignments/next/"
        for uid in plan.annotators:
            while left:
                answer = self._post(index, uid, "next", next_path, {"kind": "author"})
                if answer.status == 204:
                    break  # this annotator is done: an empty queue is not part of the next/submit mix
                if answer.status != 200:
                    raise RuntimeError(f"next answered {answer.status}: {answer.data}")
                claimed = answer.data
                submit_path = f"/api/projects/{self.slug}/assignments/{claimed['id']}/submit/"
                body = {"payload": payload(claimed["concept"]["name"]), "justification": ""}
                answer = self._post(index, uid, "submit", submit_path, body)
                if answer.status != 200:
                    raise RuntimeError(f"submit answered {answer.status}: {answer.data}")
                left -= 1
            if not left:
                break

    def run(self, *, in_process: bool) -> tuple[list[Sample], float]:
        started = time.perf_counter()
        run_threads([lambda i=i: self.client(i) for i in range(len(self.plans))], connect=in_process)
        return [s for samples in self.samples for s in samples], time.perf_counter() - started


def check_api_routes(slug: str) -> None:
    from django.urls import Resolver404, resolve

    for path in (f"/api/projects/{slug}/assignments/next/", f"/api/projects/{slug}/assignments/1/submit/"):
        try:
            resolve(path)
        except Resolver404:
            sys.exit(f"The API route {path} does not exist; this benchmark drives the REST API.")


def summarize(samples: list[Sample]) -> dict:
    server = sorted(s.server_ms for s in samples)
    client = sorted(s.client_ms for s in samples)
    out = {
        "requests": len(samples),
        "p50_ms": round(percentile(server, 50), 2),
        "p95_ms": round(percentile(server, 95), 2),
        "p99_ms": round(percentile(server, 99), 2),
        "max_ms": round(server[-1], 2),
        "client_p50_ms": round(percentile(client, 50), 2),
        "client_p95_ms": round(percentile(client, 95), 2),
        "queries_per_request": round(statistics.fmean(s.queries for s in samples), 3),
    }
    by_endpoint: dict[str, list[Sample]] = defaultdict(list)
    for s in samples:
        by_endpoint[s.endpoint].append(s)
    for name, group in sorted(by_endpoint.items()):
        times = sorted(s.server_ms for s in group)
        out[f"{name}_p50_ms"] = round(percentile(times, 50), 2)
        out[f"{name}_p95_ms"] = round(percentile(times, 95), 2)
        out[f"{name}_queries"] = sorted({s.queries for s in group})
    return out


def main() -> None:
    args = parse_args()
    url = database_url_or_exit()
    if args.recreate_db:
        recreate_database(url)
    setup_django()
    migrate()

    from annotation.services.assignments import assignment_plan_authoring
    from bench._server import ProcessServer, ThreadServer

    slug = f"bench-{args.annotators}x{args.concepts}-{int(time.time())}"
    check_api_routes(slug)
    filled = fill(slug=slug, annotators=args.annotators, concepts=args.concepts)

    started = time.perf_counter()
    summary = assignment_plan_authoring(project=filled.project)
    plan_seconds = time.perf_counter() - started
    log(f"planned {summary.created} assignments for {summary.workers} annotators in {plan_seconds:.2f} s")

    plans = plan_clients(
        project=filled.project, annotator_ids=filled.annotator_ids, clients=args.clients, pairs=args.requests // 2
    )
    sessions = log_in([uid for plan in plans for uid in plan.annotators])
    analyze()
    in_process = args.server_workers == 0
    server = ThreadServer(args.clients) if in_process else ProcessServer(args.server_workers, args.clients)
    where = "in-process threads" if in_process else f"{args.server_workers} worker processes"
    log(f"{args.clients} clients, {len(sessions)} annotators logged in, served by {where}")
    try:
        samples, seconds = Driver(slug=slug, plans=plans, sessions=sessions, server=server).run(in_process=in_process)
    finally:
        server.close()
    log(f"{len(samples)} requests in {seconds:.1f} s")
    emit_judged(
        "annotate_loop",
        {
            "plan_seconds": round(plan_seconds, 3),
            **summarize(samples),
            "annotators": args.annotators,
            "concepts": args.concepts,
            "assignments_planned": summary.created,
            "clients": args.clients,
            "server_workers": args.server_workers,
            "fill_seconds": round(filled.seconds, 2),
            "requests_per_second": round(len(samples) / seconds, 1),
            "load_average_1m": round(os.getloadavg()[0], 2),
            "project": slug,
            "copy_rows_per_second": round(copy_rate()),
        },
    )


if __name__ == "__main__":
    main()
