"""NLI validation rounds at scale on PostgreSQL (DATABASE_URL): IndoNLI's protocol, 100% validated.

Fills an expert nli project with 20,000 premises (one writer each, 200 annotators) and 120,000
approved hypotheses (six per premise, two per label), then measures:
- round1_plan_seconds: judging_plan (round 1: two validators per pair, never the author; 240,000 slots,
  stored in blocks); round1_write_rest_seconds: all of them written into the assignment table at once;
- round2_plan_seconds: judging_plan_next_rounds once every round-1 label is in (simulated, seeded,
  written with COPY): the gold decision of every pair, then one more validator for each contested pair;
- report_seconds: the nli report as the `report` command computes it: the project's rows read from the
  database (qc.reports.rows) and report_sections over them, with rounds 2 and 3 answered and gold decided.
  Measured warm: scikit-learn (the hypothesis-only baseline) is imported before the clock starts, as in a
  web or worker process that has served one report (a cold import adds ~1.2 s once per process);
- copy_rows_per_second: a plain COPY of 120,000 rows into a scratch table, in the same run, so the
  figures can be compared across machines.
Goals (bench/goals.py): each plan < 5 s, the report < 5 s.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/gotong_bench_nli .venv/bin/python bench/nli_rounds.py

The database named in DATABASE_URL is dropped and re-created (its name must contain "bench").
Progress goes to stderr; the last stdout line is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._common import (  # noqa: E402 - the path above makes the repository importable
    copy_rate,
    copy_table,
    database_url_or_exit,
    emit_judged,
    log,
    migrate,
    recreate_database,
    setup_django,
    write_planned_blocks,
)

SLUG = "bench-nli"
SOURCES = ("wiki", "news", "web")
LABELS = ("entailment", "neutral", "contradiction")
_VOCABULARY = (
    "kota pulau jalan sungai gunung pasar sekolah rumah sakit desa warga pemerintah presiden menteri "
    "tahun bulan hari pagi malam hujan panas angin laut kapal pesawat kereta mobil motor harga beras "
    "minyak gula kopi teh makan minum tidur kerja belajar membaca menulis bermain berlari membeli menjual "
    "besar kecil baru lama tinggi rendah banyak sedikit semua beberapa tidak bukan juga hanya sudah belum"
)
WORDS = tuple(_VOCABULARY.split())


def _sentence(rng: random.Random, low: int, high: int) -> str:
    words = [rng.choice(WORDS) for _ in range(rng.randint(low, high))]
    return " ".join(words).capitalize() + "."


def fill(*, premises: int, annotators: int, seed: int) -> int:
    """Users, memberships, three genres, premises (Concept.data), six approved hypotheses each. COPY."""
    from django.contrib.auth import get_user_model
    from django.db import connection, transaction
    from django.utils import timezone

    from annotation.models import Category, Concept, Item, ItemVersion, Membership
    from annotation.services.projects import project_create

    rng = random.Random(seed)
    now = timezone.now()
    user_model = get_user_model()
    with transaction.atomic():
        admin = user_model.objects.create_user(username="bench-admin", password=None)
        project = project_create(
            creator=admin,
            name="Bench NLI rounds",
            slug=SLUG,
            task_type="nli",
            languages=[{"code": "id"}],
            max_annotators=annotators,
            plan_seed=seed,
            annotator_type="expert",  # 100% validated, as the paper's expert data
        )
        copy_table(
            user_model._meta.db_table,
            ["password", "is_superuser", "username", "first_name", "last_name", "email", "is_staff", "is_active"]
            + ["date_joined"],
            (("!", False, f"bench-v{n}", "", "", "", False, True, now) for n in range(1, annotators + 1)),
        )
        users = dict(user_model.objects.filter(username__startswith="bench-v").values_list("username", "pk"))
        ids = [users[f"bench-v{n}"] for n in range(1, annotators + 1)]
        copy_table(
            Membership._meta.db_table,
            ["project_id", "user_id", "role", "is_active", "is_imported", "code", "group", "countries", "joined_at"],
            ((project.pk, uid, "annotator", True, False, f"W{n + 1}", "", "[]", now) for n, uid in enumerate(ids)),
        )
        categories = [Category.objects.create(project=project, name=name) for name in SOURCES]

        def premise_rows():
            for i in range(premises):
                sentences = rng.choices((1, 2, 3), weights=(75, 18, 7))[0]
                text = " ".join(_sentence(rng, 6, 18) for _ in range(sentences))
                size = ("single", "double", "multiple")[sentences - 1]
                data = {
                    "text": text,
                    "source": SOURCES[i % 3],
                    "topic": f"topik {i % 40}",
                    "document_id": f"doc-{i // 5}",
                    "sentence_size": size,
                }
                yield (project.pk, categories[i % 3].pk, f"p{i}", "{}", json.dumps(data))

        copy_table(
            Concept._meta.db_table, ["project_id", "category_id", "name", "translations", "data"], premise_rows()
        )
        concepts = list(Concept.objects.filter(project=project).order_by("pk").values_list("pk", flat=True))
        copy_table(
            Item._meta.db_table,
            ["project_id", "task_type", "source", "status", "author_id", "concept_id", "slot", "judging_round"]
            + ["external_id", "status_reason", "created_at", "updated_at"],
            (
                (project.pk, "nli", "human", "approved", ids[i % annotators], concept, slot, 0, "", "", now, now)
                for i, concept in enumerate(concepts)
                for slot in range(6)
            ),
        )
        items = list(Item.objects.filter(project=project).order_by("pk").values_list("pk", "author_id", "slot"))
        copy_table(
            ItemVersion._meta.db_table,
            ["item_id", "number", "payload", "created_by_id", "created_at", "note", "justification", "submitted_at"],
            (
                (
                    pk,
                    1,
                    json.dumps({"hypothesis": _sentence(rng, 4, 12), "label": LABELS[slot // 2], "tags": []}),
                    author,
                    now,
                    "bench",
                    "",
                    now,
                )
                for pk, author, slot in items
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


def answer_round(project_id: int, round_: int, *, agree: float, seed: int) -> int:
    """Every open assignment of the round answered: the author's label with probability `agree`, else one
    of the two others. COPY, then one UPDATE marking the assignments done."""
    from django.db import connection, transaction
    from django.db.models.fields.json import KeyTextTransform
    from django.utils import timezone

    from annotation.models import Assignment, Item, Judgment

    rng = random.Random(seed * 10 + round_)
    now = timezone.now()
    author_label = dict(
        Item.objects.filter(project_id=project_id).values_list(
            "pk", KeyTextTransform("label", "current_version__payload")
        )
    )
    # read fully before COPY: a COPY holds the connection, so a server-side cursor can't fetch meanwhile
    rows = list(
        Assignment.objects.filter(project_id=project_id, kind="validate", round=round_, status="pending")
        .order_by("pk")
        .values_list("pk", "target_item_id", "user_id", "target_author_id")
    )

    def judgments():
        for aid, item_id, user_id, author_id in rows:
            own = author_label[item_id]
            label = own if rng.random() < agree else rng.choice([x for x in LABELS if x != own])
            yield (project_id, item_id, user_id, author_id, aid, "validate", round_, json.dumps({"label": label}))

    with transaction.atomic():
        copy_table(
            Judgment._meta.db_table,
            ["project_id", "item_id", "user_id", "item_author_id", "assignment_id", "kind", "round", "value"]
            + ["flags", "comment", "created_at", "updated_at"],
            ((*row, '{"error": false, "correction": ""}', "", now, now) for row in judgments()),
        )
        with connection.cursor() as cursor:
            cursor.execute(
                f"UPDATE {Assignment._meta.db_table} SET status = 'done', completed_at = %s "
                "WHERE project_id = %s AND kind = 'validate' AND round = %s AND status = 'pending'",
                [now, project_id, round_],
            )
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    return len(rows)


def timed(function, **kwargs):
    started = time.perf_counter()
    result = function(**kwargs)
    return result, time.perf_counter() - started


def timed_plan(function, project):
    """A judging plan timed as a whole (commit included) and where the time went: the gold decisions it
    re-takes (rounds 2 and 3), the pure planner, the COPY of the assignments (with their foreign keys
    checked once, annotation/foreign_keys.py), the commit, and the rest (reads, updates)."""
    import dataclasses

    from django.db import transaction

    import annotation.services.judging as judging
    from annotation import hooks

    parts: dict[str, float] = {}

    def timing(name, original):
        def wrapper(*args, **kwargs):
            started = time.perf_counter()
            try:
                return original(*args, **kwargs)
            finally:
                parts[name] = round(parts.get(name, 0.0) + time.perf_counter() - started, 3)

        return wrapper

    engine = hooks.gold_engine()
    originals = (
        judging.plan_balanced,
        judging._insert_judge_assignments,
        judging.plan_balanced_columns,
        judging.planned_blocks_save,
    )
    judging.plan_balanced = timing("planner", originals[0])
    judging._insert_judge_assignments = timing("copy", originals[1])
    # The judging engine reaches the gold engine through annotation.hooks: the timed one is registered there.
    hooks.gold_engine_register(
        dataclasses.replace(
            engine,
            recompute_outcomes=timing("gold_decisions", engine.recompute_outcomes),
            recompute_for_rounds=timing("gold_decisions", engine.recompute_for_rounds),
        )
    )
    judging.plan_balanced_columns = timing("planner", originals[2])
    judging.planned_blocks_save = timing("blocks", originals[3])
    try:
        started = time.perf_counter()
        with transaction.atomic():  # the service's own atomic block becomes a savepoint: commit timed apart
            result = function(project=project)
            committing = time.perf_counter()
        total = time.perf_counter() - started
        parts["commit"] = round(time.perf_counter() - committing, 3)
    finally:
        (
            judging.plan_balanced,
            judging._insert_judge_assignments,
            judging.plan_balanced_columns,
            judging.planned_blocks_save,
        ) = originals
        hooks.gold_engine_register(engine)
    parts["reads_and_rest"] = round(total - sum(parts.values()), 3)
    return result, total, parts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--premises", type=int, default=20_000)
    parser.add_argument("--annotators", type=int, default=200)
    parser.add_argument("--agree", type=float, default=0.87, help="chance a validator picks the author's label")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()

    url = database_url_or_exit()
    recreate_database(url)
    setup_django()
    migrate()
    import sklearn.feature_extraction.text  # noqa: F401 - warm imports, see the module docstring
    import sklearn.linear_model  # noqa: F401
    import sklearn.model_selection  # noqa: F401
    import sklearn.pipeline  # noqa: F401

    from annotation.models import Item, Project
    from annotation.services.judging import judging_plan, judging_plan_next_rounds
    from annotation.task_types import get_task_type
    from qc.gold import gold_recompute_project
    from qc.reports import report_sections
    from qc.reports.rows import report_rows

    started = time.perf_counter()
    project_id = fill(premises=args.premises, annotators=args.annotators, seed=args.seed)
    pairs = Item.objects.filter(project_id=project_id).count()
    log(
        f"filled {args.premises} premises, {pairs} pairs, {args.annotators} annotators "
        f"in {time.perf_counter() - started:.1f}s"
    )
    project = Project.objects.get(pk=project_id)

    round1, round1_seconds, round1_parts = timed_plan(judging_plan, project)
    log(f"round 1 planned: {round1.created} assignments, {round1.items} pairs, {round1_seconds:.2f}s {round1_parts}")
    round1_write_rest_seconds = write_planned_blocks(project_id)  # the simulated answers below need every row
    labels = {1: answer_round(project_id, 1, agree=args.agree, seed=args.seed)}
    log(f"round 1 answered: {labels[1]} labels")

    round2, round2_seconds, round2_parts = timed_plan(judging_plan_next_rounds, project)
    log(f"round 2 planned: {round2.created} assignments, {round2.items} pairs, {round2_seconds:.2f}s {round2_parts}")
    labels[2] = answer_round(project_id, 2, agree=args.agree, seed=args.seed)
    round3, round3_seconds, _ = timed_plan(judging_plan_next_rounds, project)
    log(f"round 3 planned: {round3.created} assignments in {round3_seconds:.2f}s")
    labels[3] = answer_round(project_id, 3, agree=args.agree, seed=args.seed)
    outcomes, gold_seconds = timed(gold_recompute_project, project=project)
    log(f"gold decided: {outcomes} in {gold_seconds:.1f}s")

    rows, rows_seconds = timed(report_rows, project=project)
    sections_started = time.perf_counter()
    get_task_type("nli").report_sections(rows)
    sections_seconds = time.perf_counter() - sections_started
    del rows
    report, report_seconds = timed(report_sections, project=project)
    log(
        f"report in {report_seconds:.2f}s (apart: rows {rows_seconds:.2f}s, sections {sections_seconds:.2f}s); "
        f"rounds {report['rounds']}, saving {report['saving_percent']:.1f}%"
    )
    copy_rows_per_second = copy_rate(pairs)
    log(f"plain COPY: {copy_rows_per_second:,.0f} rows/s")

    result = {
        "premises": args.premises,
        "pairs": pairs,
        "annotators": args.annotators,
        "labels_by_round": {str(n): count for n, count in labels.items()},
        "round1_plan_seconds": round(round1_seconds, 3),
        "round1_plan_breakdown": round1_parts,
        "round1_write_rest_seconds": round(round1_write_rest_seconds, 3),
        "round2_plan_seconds": round(round2_seconds, 3),
        "round2_plan_breakdown": round2_parts,
        "round3_plan_seconds": round(round3_seconds, 3),
        "gold_seconds": round(gold_seconds, 3),
        "report_seconds": round(report_seconds, 3),
        "report_rows_seconds": round(rows_seconds, 3),
        "report_sections_seconds": round(sections_seconds, 3),
        "rounds": report["rounds"],
        "cumulative_gold_share": {n: round(share, 4) for n, share in report["cumulative_gold_share"].items()},
        "annotations_needed": report["annotations_needed"],
        "saving_percent": round(report["saving_percent"], 2),
        "copy_rows_per_second": round(copy_rows_per_second),
    }
    emit_judged("nli_rounds", result)


if __name__ == "__main__":
    main()
