"""ArabCulture at the paper's size through the real services, on PostgreSQL (DATABASE_URL).

13 countries x 2 screened annotators x 150 items = 3,900 items (Sadallah et al. 2025), one national
reviewer per country. Every annotator claims and submits their 150 items (spread over the 12 topics);
each reviewer claims and approves the items of their country (stage 1); judging is planned (stage 2,
one peer of the author's country per item) and the peers answer, wrongly for 418 items, so 3,482 are
kept as in the paper. Then `report --json`, `export_gold` (JSONL and Parquet), the import of the export
into a new project and its re-export (lossless: the two JSONL files hold the same rows in the same order,
once the first file's `label_posterior` is set aside: that column is the aggregation model's reading of the
peers' answers, and the released layout, which the new project is imported from, carries no answers).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/gotong_h2_bench .venv/bin/python bench/arabculture.py

The database named in DATABASE_URL is dropped and re-created (its name must contain "bench"). Options:
--per-annotator [150]. Progress goes to stderr; the last stdout line is one JSON object.
"""

from __future__ import annotations

import argparse
import io
import json
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
    recreate_database,
    setup_django,
)

SLUG = "bench-arabculture"
WRONG_TARGET = 418  # 3,900 -> 3,482 (the paper)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--per-annotator", type=int, default=150)
    args = parser.parse_args()
    recreate_database(database_url_or_exit())
    setup_django()
    migrate()

    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from annotation.models import Assignment, Membership
    from annotation.services.assignments import assignment_claim_next, assignment_plan_authoring
    from annotation.services.catalog import concepts_import
    from annotation.services.items import unit_submit
    from annotation.services.judging import judging_plan
    from annotation.services.judgments import judgment_record
    from annotation.services.members import member_set_countries
    from annotation.services.projects import membership_add, profile_update, project_create
    from annotation.task_types.sentence_completion.judging import shuffled_order
    from annotation.task_types.sentence_completion.payload import LETTERS
    from annotation.task_types.sentence_completion.places import COUNTRIES, TOPICS
    from qc.services import review_claim_next, review_decide

    user_model = get_user_model()
    per = args.per_annotator
    figures: dict = {"countries": len(COUNTRIES), "annotators": 2 * len(COUNTRIES), "per_annotator": per}
    started = time.perf_counter()
    admin = user_model.objects.create_user(username="ac-admin")
    project = project_create(
        creator=admin,
        name="ArabCulture bench",
        slug=SLUG,
        task_type="sentence_completion",
        languages=[{"code": "ar", "name": "العربية", "direction": "rtl"}],
        authors_per_concept=1,
        plan_seed=7,
    )
    authors: list[tuple[object, str]] = []
    reviewers = []
    for c, country in enumerate(COUNTRIES):
        for n in (1, 2):
            user = user_model.objects.create_user(username=f"ac-{c}-{n}")
            membership = membership_add(
                project=project, user=user, role=Membership.Role.ANNOTATOR, code=f"{country}-{n}"
            )
            profile_update(membership=membership, country=country)
            authors.append((user, country))
        reviewer = user_model.objects.create_user(username=f"ac-{c}-reviewer")
        member_set_countries(
            membership=membership_add(project=project, user=reviewer, role=Membership.Role.REVIEWER),
            countries=[country],
        )
        reviewers.append(reviewer)
    units = len(authors) * per
    csv = "category,concept\n" + "".join(f"{TOPICS[j % len(TOPICS)]},subtopic {j:05d}\n" for j in range(units))
    concepts_import(project=project, data=csv.encode(), filename="units.csv")
    t = time.perf_counter()
    assignment_plan_authoring(project=project)
    figures["plan_authoring_seconds"] = round(time.perf_counter() - t, 3)
    from django.db.models import Count

    planned = Assignment.objects.filter(project=project, kind=Assignment.Kind.AUTHOR)
    per_author = [r["n"] for r in planned.values("user_id").annotate(n=Count("id"))]
    per_topic = [r["n"] for r in planned.values("user_id", "concept__category_id").annotate(n=Count("id"))]
    figures["planned_per_annotator"] = [min(per_author), max(per_author)]
    figures["planned_per_annotator_and_topic"] = [min(per_topic), max(per_topic)]
    log(f"set up {units} units in {time.perf_counter() - started:.1f}s")

    t = time.perf_counter()
    k = 0
    for user, country in authors:
        for _ in range(per):
            assignment = assignment_claim_next(project=project, user=user, kind=Assignment.Kind.AUTHOR)
            premise = f"يقوم أحمد بتحضير الطعام رقم {k} في بيته"
            data = {
                "premise": premise,
                "completions": [f"يتم تناوله مع الأرز {k}", f"يتم تناوله بالخبز {k}", f"يتم تناوله مع الفواكه {k}"],
                "answer": LETTERS[k % 3],
                "country": country,
                "relevant_to_this_country": True,
                "relevant_to_other_countries": k % 4 == 0,
            }
            unit_submit(assignment_id=assignment.pk, user=user, data=data)
            k += 1
    seconds = time.perf_counter() - t
    figures.update(items=k, author_seconds=round(seconds, 1), author_ms_per_item=round(1000 * seconds / k, 2))
    log(f"authored {k} items in {seconds:.1f}s")

    t = time.perf_counter()
    reviewed = 0
    for reviewer in reviewers:
        while (item := review_claim_next(project=project, reviewer=reviewer)) is not None:
            review_decide(item_id=item.pk, version_id=item.current_version_id, reviewer=reviewer, decision="approve")
            reviewed += 1
    seconds = time.perf_counter() - t
    figures.update(reviewed=reviewed, review_ms_per_item=round(1000 * seconds / max(reviewed, 1), 2))
    log(f"stage 1: {reviewed} approved in {seconds:.1f}s")

    t = time.perf_counter()
    judging_plan(project=project)
    figures["judging_plan_seconds"] = round(time.perf_counter() - t, 3)
    t = time.perf_counter()
    assignments = list(
        Assignment.objects.filter(project=project, kind="answer")
        .select_related("target_item__current_version", "user")
        .order_by("pk")
    )
    # The paper's share of discarded items (418 of 3,900), spread evenly over the assignments.
    n_wrong = round(len(assignments) * WRONG_TARGET / 3900)
    wrong = {int(i * len(assignments) / n_wrong) for i in range(n_wrong)}
    for i, assignment in enumerate(assignments):
        item = assignment.target_item
        order = shuffled_order(item.pk, project.plan_seed)
        author_index = LETTERS.index(item.current_version.payload["answer"])
        index = (author_index + 1) % 3 if i in wrong else author_index
        judgment_record(assignment_id=assignment.pk, user=assignment.user, data={"choice": LETTERS[order.index(index)]})
    seconds = time.perf_counter() - t
    figures.update(peer_answers=len(assignments), peer_ms_per_item=round(1000 * seconds / max(len(assignments), 1), 2))
    log(f"stage 2: {len(assignments)} answers in {seconds:.1f}s")

    from annotation.models import Item

    figures["statuses"] = dict(
        Item.objects.filter(project=project).values_list("status").annotate(n=Count("id")).order_by("status")
    )
    out = io.StringIO()
    t = time.perf_counter()
    call_command("report", SLUG, "--json", stdout=out)
    figures["report_seconds"] = round(time.perf_counter() - t, 3)
    completion = json.loads(out.getvalue())["completion"]
    figures["report"] = {key: completion[key] for key in ("items", "rejected", "discarded", "kept", "pending")} | {
        "country_specific_share": completion["country_specific"]["share"]
    }

    with tempfile.TemporaryDirectory() as tmp:
        first, second = Path(tmp, "first"), Path(tmp, "second")
        t = time.perf_counter()
        call_command("export_gold", SLUG, "--format", "jsonl", "--out", str(first), stdout=io.StringIO())
        figures["export_jsonl_seconds"] = round(time.perf_counter() - t, 3)
        t = time.perf_counter()
        call_command("export_gold", SLUG, "--format", "parquet", "--out", str(first), stdout=io.StringIO())
        figures["export_parquet_seconds"] = round(time.perf_counter() - t, 3)
        (exported,) = list(first.rglob("*.jsonl"))
        figures["exported_rows"] = sum(1 for _ in exported.open(encoding="utf-8"))
        t = time.perf_counter()
        call_command(
            "import_items", str(exported), "--project", f"{SLUG}-again", "--format", "arabculture", stdout=io.StringIO()
        )
        figures["import_seconds"] = round(time.perf_counter() - t, 3)
        call_command("export_gold", f"{SLUG}-again", "--format", "jsonl", "--out", str(second), stdout=io.StringIO())
        (again,) = list(second.rglob("*.jsonl"))
        figures["export_import_lossless"] = released_rows(exported) == released_rows(again)
    figures["total_seconds"] = round(time.perf_counter() - started, 1)
    figures["copy_rows_per_second"] = round(copy_rate())
    emit_judged("arabculture", figures)


def released_rows(path: Path) -> list[dict]:
    """The file's rows without the aggregation model's column (see the module's docstring)."""
    with path.open(encoding="utf-8") as lines:
        return [{k: v for k, v in json.loads(line).items() if k != "label_posterior"} for line in lines]


if __name__ == "__main__":
    main()
