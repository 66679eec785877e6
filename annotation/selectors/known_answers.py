"""Known-answer checks, the reads: each judge's score on checks, and the dashboard's table of them."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from annotation.checks import CheckScore, score_checks
from annotation.models import Item, Judgment, Membership, Project
from annotation.task_types import get_task_type


def check_scores(
    *, project: Project, user_id: int | None = None, since: datetime | None = None
) -> dict[int, CheckScore]:
    """Each judge's checks answered and answered right (one query); `since`: only judgments saved after."""
    judgments = Judgment.objects.filter(project=project, item__status=Item.Status.CHECK)
    if user_id is not None:
        judgments = judgments.filter(user_id=user_id)
    if since is not None:
        judgments = judgments.filter(updated_at__gt=since)
    rows = judgments.values_list("user_id", "value", "item__known_answer").order_by()
    return score_checks(rows, get_task_type(project.task_type).agreement_value)


def check_table(*, project: Project, members: Iterable[Membership], has_checks: bool) -> list[dict]:
    """The dashboard's known-answer rows: every annotator who answered a check or is paused, with their
    checks, right answers and accuracy. `members`: the project's annotators in the dashboard's order, with
    their users (dashboard_stats loads them); `has_checks`: the project has check items (its status
    counts say so). One query when it has, none when not."""
    scores = check_scores(project=project) if has_checks else {}
    rows = []
    for m in members:
        score = scores.get(m.user_id)
        if score is None and m.paused_at is None:
            continue
        score = score or CheckScore(checks=0, correct=0)
        rows.append(
            {
                "membership": m,
                "checks": score.checks,
                "correct": score.correct,
                "percent": score.percent,
                "paused": m.paused_at is not None,
            }
        )
    return rows
