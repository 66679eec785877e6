"""The judging queue of an open-ended benchmark run (Putri et al. 2024, Section 7.1): reviewers
read each model reply beside the question and the gold answer and say whether it is correct.

A verdict is final: a reply already judged (by anyone) is refused, so two reviewers working the queue
at once never count one reply twice, and nothing changes. A verdict makes the prediction parsed, with
`correct` the verdict and rule "judged", so the run's report reads it like an extracted answer.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from annotation.errors import Conflict, InvalidInput
from evaluation.models import Call, Prediction, Run

JUDGED_RULE = "judged"


class QueueEntry(NamedTuple):
    prediction: Prediction | None  # None: every reply is judged
    question: str  # the prompt the model saw (an open-ended template is the question alone)
    gold: str  # "B. jajanan": the gold letter and its option text
    judged: int
    total: int


def is_open_ended(run: Run) -> bool:
    return run.kind == "benchmark" and bool(run.parameters.get("open_ended"))


def unjudged(run: Run) -> QuerySet[Prediction]:
    return Prediction.objects.filter(run=run, judged_correct__isnull=True).order_by("id")


def _question(call_id: int | None) -> str:
    request: dict[str, Any] = (
        Call.objects.filter(pk=call_id).values_list("request", flat=True).first() if call_id else None
    ) or {}
    messages = request.get("messages") or []
    users = [m.get("content", "") for m in messages if m.get("role") == "user"]
    return users[-1] if users else ""


def gold_text(prediction: Prediction) -> str:
    case = prediction.case
    answers = list(case.answers or [])
    if prediction.gold in answers and answers.index(prediction.gold) < len(case.options or []):
        return f"{prediction.gold}. {case.options[answers.index(prediction.gold)]}"
    return prediction.gold


def next_entry(run: Run) -> QueueEntry:
    """The oldest unjudged reply of the run, with what a reviewer needs to judge it, and the counts."""
    prediction = unjudged(run).select_related("case", "endpoint").first()
    total = Prediction.objects.filter(run=run).count()
    judged = Prediction.objects.filter(run=run, judged_correct__isnull=False).count()
    if prediction is None:
        return QueueEntry(None, "", "", judged, total)
    return QueueEntry(prediction, _question(prediction.call_id), gold_text(prediction), judged, total)


@transaction.atomic
def prediction_judge(*, run: Run, prediction_id: int, user: Any, correct: bool) -> Prediction:
    """Record a reviewer's verdict on one open-ended reply of `run`."""
    if not is_open_ended(run):
        raise InvalidInput(_("Only the replies of an open-ended run are judged."))
    prediction = Prediction.objects.select_for_update().filter(run=run, pk=prediction_id).first()
    if prediction is None:
        raise InvalidInput(_("This reply is not part of the run."))
    if prediction.judged_correct is not None:
        raise Conflict(_("This reply has already been judged."))
    prediction.judged_correct = bool(correct)
    prediction.judged_by = user
    prediction.judged_at = timezone.now()
    prediction.parsed = True
    prediction.correct = bool(correct)
    prediction.rule = JUDGED_RULE
    prediction.save(update_fields=["judged_correct", "judged_by", "judged_at", "parsed", "correct", "rule"])
    return prediction
