"""Authoring at scale: fill a project, plan authoring (k = 2), then next-assignment + submit under load.

Run (PostgreSQL only; the database is migrated first if needed):

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/gotong_bench .venv/bin/python bench/annotate_loop.py

Options: --annotators 1000 --concepts 100000 --clients 32 --requests 3200 --server-workers 32
--mode api|services --recreate-db (drop and re-create the bench database first; only allowed when
its name contains "bench"). Each run makes a new project `bench-<annotators>x<concepts>-<time>` with its
own users, so earlier runs are never touched; use --recreate-db (or a new database) to start clean.

What it does:
1. Fills the project with COPY: annotators (no usable password: the clients use force_login),
   memberships, profiles, 5 categories and the concepts spread evenly over them.
2. Plans authoring with `assignment_plan_authoring` and times it (`plan_seconds`).
3. Drives the REST API with `--clients` threads, each a Django test `Client` logged in as one annotator
   after another: `POST /api/projects/{slug}/assignments/next/` then
   `POST /api/projects/{slug}/assignments/{id}/submit/`, until `--requests` requests are made.
   Each client works through an annotator's whole queue before moving on, so the mix is always one
   next per submit and queries per request can be compared between project sizes.

Server time per request is `time.perf_counter()` around `client.post`, i.e. the whole Django request
(middleware, session, auth, view, services, SQL). `--server-workers` bounds how many requests Django
handles at once, like the worker count of a gunicorn deployment: clients beyond it wait for a free
worker, and that wait is reported separately (`client_p50_ms`/`client_p95_ms`), not as server time.
The default (2 x CPUs) matches the deployment docs; `--server-workers 32` runs all 32 clients inside
Django at once, where, in one Python process, the threads also queue for the GIL.

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
    copy_rows,
    count_queries,
    database_url_or_exit,
    emit,
    log,
    migrate,
    percentile,
    recreate_database,
    run_threads,
    setup_django,
)

CATEGORIES = ["culinary", "place", "culture", "history", "activity"]
CHOICES = ["Di pasar", "Di sawah", "Di laut", "Di gunung", "Di kota"]
MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--annotators", type=int, default=1000)
    parser.add_argument("--concepts", type=int, default=100_000)
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--requests", type=int, default=3200, help="total requests (half next, half submit)")
    parser.add_argument("--server-workers", type=int, default=2 * (os.cpu_count() or 1))
    parser.add_argument("--mode", choices=["api", "services"], default="api")
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
        copy_rows(
            user_model,
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
            ((UNUSABLE_PASSWORD, False, f"{slug}-a{i:06d}", "", "", "", False, True, now) for i in range(annotators)),
        )
        annotator_ids = list(
            user_model.objects.filter(username__startswith=f"{slug}-a0")
            .order_by("username")
            .values_list("id", flat=True)
        )
        copy_rows(
            Membership,
            ["project", "user", "role", "is_active", "code", "joined_at"],
            (
                (project.pk, uid, Membership.Role.ANNOTATOR, True, f"W{i + 1}", now)
                for i, uid in enumerate(annotator_ids)
            ),
        )
        copy_rows(
            AnnotatorProfile,
            ["user", "native_languages", "region", "country", "ethnicity", "education", "screening_answers"],
            ((uid, "id", f"Region {i % 20}", "Indonesia", "", "", "{}") for i, uid in enumerate(annotator_ids)),
        )
        categories = Category.objects.bulk_create(Category(project=project, name=name) for name in CATEGORIES)
        per_category = -(-concepts // len(categories))
        copy_rows(
            Concept,
            ["project", "category", "name", "translations"],
            ((project.pk, categories[i // per_category].pk, f"konsep{i:06d}", "{}") for i in range(concepts)),
        )
    seconds = time.perf_counter() - started
    log(
        f"filled {slug}: {annotators} annotators, {concepts} concepts in {len(categories)} categories ({seconds:.1f} s)"
    )
    return Filled(project=project, annotator_ids=annotator_ids, seconds=seconds)


def analyze() -> None:
    # Fresh bulk-loaded tables have no statistics yet; autovacuum would gather them within a minute.
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")


@dataclass
class Sample:
    endpoint: str
    server_ms: float
    client_ms: float
    queries: int


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
        available = sum(queue.get(uid, 0) for uid in plan.annotators)
        plan.pairs = min(wanted, available)
        # Keep only the annotators this client will reach.
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


def payload(concept: str) -> dict:
    return {"question": f"Di mana orang biasanya menemukan {concept}?", "choices": CHOICES, "answer": "A"}


class Driver:
    """Runs the clients and collects one Sample per request."""

    def __init__(self, *, project, plans: list[ClientPlan], server_workers: int, mode: str) -> None:
        from django.contrib.auth import get_user_model

        from annotation.models import Assignment

        self.project = project
        self.plans = plans
        self.mode = mode
        self.slots = threading.BoundedSemaphore(server_workers)
        used = [uid for plan in plans for uid in plan.annotators]
        self.users = get_user_model().objects.in_bulk(used)
        self.concepts = dict(
            Assignment.objects.filter(project=project, user_id__in=used).values_list("id", "concept__name")
        )
        self.samples: list[list[Sample]] = [[] for _ in plans]
        self.done = 0
        self.lock = threading.Lock()

    def _timed(self, endpoint: str, out: list[Sample], call):
        waited = time.perf_counter()
        with self.slots, count_queries() as captured:
            started = time.perf_counter()
            result = call()
            finished = time.perf_counter()
        out.append(Sample(endpoint, (finished - started) * 1000, (finished - waited) * 1000, len(captured)))
        return result

    def _progress(self, n: int) -> None:
        with self.lock:
            before = self.done
            self.done += n
            if self.done // 500 > before // 500:
                log(f"{self.done} requests")

    def client_api(self, index: int) -> None:
        from django.test import Client

        plan, out, client = self.plans[index], self.samples[index], Client()
        slug = self.project.slug
        next_url = f"/api/projects/{slug}/assignments/next/"
        left = plan.pairs
        for uid in plan.annotators:
            client.force_login(self.users[uid], backend=MODEL_BACKEND)
            while left:
                response = self._timed(
                    "next", out, lambda: client.post(next_url, {"kind": "author"}, content_type="application/json")
                )
                if response.status_code == 204:
                    out.pop()  # this annotator's queue is empty: not part of the fixed next/submit mix
                    break
                if response.status_code != 200:
                    raise RuntimeError(f"next answered {response.status_code}: {response.content[:500]!r}")
                claimed = response.json()
                assignment_id = claimed["id"]
                concept = (claimed.get("concept") or {}).get("name") or self.concepts[assignment_id]
                body = {"payload": payload(concept), "justification": ""}
                submit_url = f"/api/projects/{slug}/assignments/{assignment_id}/submit/"
                response = self._timed(
                    "submit", out, lambda url=submit_url, b=body: client.post(url, b, content_type="application/json")
                )
                if response.status_code != 200:
                    raise RuntimeError(f"submit answered {response.status_code}: {response.content[:500]!r}")
                left -= 1
                self._progress(2)
            if not left:
                break

    def client_services(self, index: int) -> None:
        from annotation.models import Assignment
        from annotation.services.assignments import assignment_claim_next
        from annotation.services.items import item_submit

        plan, out = self.plans[index], self.samples[index]
        left = plan.pairs
        for uid in plan.annotators:
            user = self.users[uid]
            while left:
                assignment = self._timed(
                    "next",
                    out,
                    lambda u=user: assignment_claim_next(project=self.project, user=u, kind=Assignment.Kind.AUTHOR),
                )
                if assignment is None:
                    out.pop()
                    break
                data = payload(self.concepts[assignment.pk])
                self._timed(
                    "submit",
                    out,
                    lambda a=assignment, u=user, d=data: item_submit(assignment_id=a.pk, user=u, data=d),
                )
                left -= 1
                self._progress(2)
            if not left:
                break

    def run(self) -> tuple[list[Sample], float]:
        target = self.client_api if self.mode == "api" else self.client_services
        started = time.perf_counter()
        run_threads([lambda i=i: target(i) for i in range(len(self.plans))])
        return [s for samples in self.samples for s in samples], time.perf_counter() - started


def check_api_routes(slug: str) -> None:
    from django.urls import Resolver404, resolve

    for path in (f"/api/projects/{slug}/assignments/next/", f"/api/projects/{slug}/assignments/1/submit/"):
        try:
            resolve(path)
        except Resolver404:
            sys.exit(f"The API route {path} does not exist (yet); run with --mode services to bench the services.")


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
        out[f"{name}_requests"] = len(group)
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

    slug = f"bench-{args.annotators}x{args.concepts}-{int(time.time())}"
    if args.mode == "api":
        check_api_routes(slug)
    filled = fill(slug=slug, annotators=args.annotators, concepts=args.concepts)

    started = time.perf_counter()
    summary = assignment_plan_authoring(project=filled.project)
    plan_seconds = time.perf_counter() - started
    log(f"planned {summary.created} assignments for {summary.workers} annotators in {plan_seconds:.2f} s")
    analyze()

    plans = plan_clients(
        project=filled.project, annotator_ids=filled.annotator_ids, clients=args.clients, pairs=args.requests // 2
    )
    driver = Driver(project=filled.project, plans=plans, server_workers=args.server_workers, mode=args.mode)
    log(f"driving {args.mode} with {args.clients} clients, {args.server_workers} server workers")
    samples, seconds = driver.run()
    result = {
        "plan_seconds": round(plan_seconds, 3),
        **summarize(samples),
        "annotators": args.annotators,
        "concepts": args.concepts,
        "assignments_planned": summary.created,
        "clients": args.clients,
        "server_workers": args.server_workers,
        "mode": args.mode,
        "fill_seconds": round(filled.seconds, 2),
        "requests_per_second": round(len(samples) / seconds, 1),
        "project": slug,
    }
    log(f"{len(samples)} requests in {seconds:.1f} s")
    emit(result)


if __name__ == "__main__":
    main()
