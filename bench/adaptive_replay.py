"""Adaptive judging replayed over released data with real annotators, on PostgreSQL (DATABASE_URL).

id-csqa's human-written questions (`v2_human_gen/<lang>/filtered_test.json`) carry the answers of the
five annotators who cross-answered each question. The file is imported into a csqa project with the
product's importer (the fixed policy: every item with its five answers, decided by the published rule),
then, for each adaptive threshold, the project's judgments are cleared and the judging is replayed
through the product's own code: `judging_plan` plans round 1 (the minimum of judges), and every planned
judge submits, through `judgment_record`, the answer the same annotator gave in the release; the gold
engine and the adaptive rule decide after each judgment whether the item is done or needs one more judge.

Prints, per policy, the judgments used and the share of items whose decision (the majority of the
answers the policy used, as the export writes it) equals the release's five-answer `answer_majority`.
Final JSON line: judgments_full, judgments_adaptive, saving and agreement at the default threshold
(bench/goals.py), the other thresholds under `policies`, copy_rows_per_second, and fit_seconds: the
project's default aggregation model (Dawid-Skene) fitted on --fit-judgments generated judgments (by default
500,000: 100,000 items x 5 of 6 annotators of different accuracy, 5 labels, seeded), through the product's
fitting code, without the database.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/gotong_bench_adaptive .venv/bin/python \\
        bench/adaptive_replay.py --csqa ../shared/data/id-csqa/v2_human_gen/ind/filtered_test.json

The database named in DATABASE_URL is dropped and re-created (its name must contain "bench").
"""

from __future__ import annotations

import argparse
import json
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
    recreate_database,
    setup_django,
)

SLUG = "bench-adaptive"
DEFAULT_FILE = Path(__file__).resolve().parents[2] / "shared/data/id-csqa/v2_human_gen/ind/filtered_test.json"
THRESHOLDS = (90, 95, 99)
DEFAULT_THRESHOLD = 99  # annotation.adaptive's default
JUDGMENTS_PER_ITEM = 5


def released_rows(path: Path, limit: int | None) -> list[dict]:
    rows = json.loads(path.read_text(encoding="utf-8"))
    return rows[:limit] if limit else rows


def decisions(project) -> dict[str, str | None]:
    """external id -> the decided label (the majority of the answers used), for the items decided gold."""
    from qc.models import GoldDecision

    return {
        external_id: details.get("majority")
        for external_id, details in GoldDecision.objects.filter(
            item__project=project, outcome=GoldDecision.Outcome.GOLD
        ).values_list("item__external_id", "details")
    }


def agreement(decided: dict[str, str | None], rows: list[dict]) -> float:
    same = sum(1 for row in rows if decided.get(row["id"]) == row["answer_majority"])
    return same / len(rows)


def replay(project, rows: list[dict], confidence: int, refit_every: int) -> tuple[int, float, float]:
    """Clear the judging, switch the project to adaptive at `confidence`, and replay it to the end.
    Returns (judgments used, agreement with the release's majority, seconds).

    The aggregation model is refitted after every `refit_every` judgments, standing in for the debounced
    background fit (one fit per 30 s of judging); counted in judgments rather than seconds, so a replay
    decides the same on any machine. The submits' own requests for a fit are held off for the replay."""
    from django.core.cache import cache

    from annotation.aggregation.store import aggregation_fit_clear, aggregation_refit
    from annotation.models import Assignment, Item, Judgment, Membership
    from annotation.services.judging import judging_plan
    from annotation.services.judgments import judgment_record
    from qc.models import GoldDecision

    # Each policy starts with no aggregation fit (judges weighed by the default accuracy until the first
    # debounced fit of its own judgments), not with one learned from the full release.
    aggregation_fit_clear(project=project)
    cache.set(f"aggregation:pending:{project.pk}", 1, timeout=None)  # see annotation/aggregation/tasks.py
    GoldDecision.objects.filter(item__project=project).delete()
    Judgment.objects.filter(project=project).delete()
    Assignment.objects.filter(project=project).exclude(kind="author").delete()
    Item.objects.filter(project=project).update(status=Item.Status.APPROVED, judging_round=0, status_reason="")
    project.settings = {**project.settings, "judging_mode": "adaptive", "adaptive_confidence": confidence}
    project.save(update_fields=["settings"])

    by_code = {row["id"]: row for row in rows}
    codes = dict(Membership.objects.filter(project=project).values_list("user_id", "code"))
    started = time.perf_counter()
    judging_plan(project=project)
    used = 0
    while True:
        pending = list(
            Assignment.objects.filter(project=project, kind="answer", status=Assignment.Status.PENDING)
            .select_related("user", "target_item")
            .order_by("round", "position")
        )
        if not pending:
            break
        for assignment in pending:
            row = by_code[assignment.target_item.external_id]
            code = codes[assignment.user_id]
            judgment_record(
                assignment_id=assignment.pk,
                user=assignment.user,
                data={
                    "answer": row["answers"][code],
                    "uncertain": row.get("answers_uncertainty", {}).get(code) == "uncertain",
                    "question_ambiguous": row.get("question_ambiguity", {}).get(code) == "ambiguous",
                    "option_ambiguous": [
                        flag == "ambiguous" for flag in row.get("option_ambiguity", {}).get(code, ["clear"] * 5)
                    ],
                },
            )
            used += 1
            if used % refit_every == 0:
                aggregation_refit(project=project)
    seconds = time.perf_counter() - started
    return used, agreement(decisions(project), rows), seconds


def fit_seconds(judgments: int) -> float:
    """Seconds to fit the default aggregation model on `judgments` generated judgments (the fit alone)."""
    from annotation.aggregation.fitting import fit
    from annotation.models import Project
    from bench.aggregation_fit import generated

    coded, _truth = generated(max(1, judgments // JUDGMENTS_PER_ITEM), per_item=JUDGMENTS_PER_ITEM)
    model = Project._meta.get_field("aggregation_model").default
    started = time.perf_counter()
    fit(model, coded)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--csqa", type=Path, default=DEFAULT_FILE, help="id-csqa filtered_test.json")
    parser.add_argument("--limit", type=int, default=None, help="only the first N questions (a quick run)")
    parser.add_argument("--refit-every", type=int, default=250, help="judgments between two aggregation fits")
    parser.add_argument(
        "--fit-judgments", type=int, default=500_000, help="generated judgments the fit_seconds figure fits"
    )
    args = parser.parse_args()

    url = database_url_or_exit()
    recreate_database(url)
    setup_django()
    migrate()

    from django.contrib.auth import get_user_model

    from annotation.models import Judgment, Project
    from annotation.services import imports
    from annotation.services.projects import project_create

    rows = released_rows(args.csqa, args.limit)
    admin = get_user_model().objects.create_user(username="bench-admin", password="x")  # noqa: S106
    project_create(
        creator=admin,
        name="Adaptive replay",
        slug=SLUG,
        task_type="csqa",
        languages=[{"code": "id", "name": "Indonesian"}],
        answerers_per_item=5,
    )
    with tempfile.NamedTemporaryFile("w", suffix=".json", encoding="utf-8") as file:
        json.dump(rows, file, ensure_ascii=False)
        file.flush()
        imports.items_import(path_or_bytes=file.name, project_slug=SLUG, format="id-csqa", language="id")
    project = Project.objects.get(slug=SLUG)
    judgments_full = Judgment.objects.filter(project=project).count()
    full_agreement = agreement(decisions(project), rows)
    log(f"fixed overlap: {judgments_full} judgments, agreement {full_agreement:.4f}")

    policies = {"fixed": {"judgments": judgments_full, "agreement": round(full_agreement, 4)}}
    for confidence in THRESHOLDS:
        used, agreed, seconds = replay(project, rows, confidence, args.refit_every)
        saving = 1 - used / judgments_full
        log(f"adaptive {confidence}%: {used} judgments (saving {saving:.1%}), agreement {agreed:.4f}, {seconds:.1f}s")
        policies[f"adaptive_{confidence}"] = {
            "judgments": used,
            "saving": round(saving, 4),
            "agreement": round(agreed, 4),
            "replay_seconds": round(seconds, 1),
        }
    default = policies[f"adaptive_{DEFAULT_THRESHOLD}"]
    fitted = fit_seconds(args.fit_judgments)
    log(f"aggregation fit: {args.fit_judgments} generated judgments in {fitted:.2f}s")
    emit_judged(
        "adaptive_replay",
        {
            "questions": len(rows),
            "judgments_full": judgments_full,
            "judgments_adaptive": default["judgments"],
            "saving": default["saving"],
            "agreement": default["agreement"],
            "default_confidence": DEFAULT_THRESHOLD,
            "policies": policies,
            "copy_rows_per_second": round(copy_rate(judgments_full)),
            "fit_judgments": args.fit_judgments,
            "fit_seconds": round(fitted, 2),
        },
    )


if __name__ == "__main__":
    main()
