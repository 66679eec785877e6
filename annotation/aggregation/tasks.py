"""The aggregation model is fitted in the background when judgments change, debounced. For a task type
that ranks models instead (pairwise comparisons: Bradley-Terry with bootstrap intervals), the same task, on
the same trigger, fits and saves that ranking.

The first judgment of a burst sets a per-project marker in the shared cache (Redis) and queues one fit
GOTONG_AGGREGATION_DEBOUNCE_SECONDS later; later judgments of the burst find the marker and queue
nothing, at no database query on the submit path. The fit deletes the marker before it reads, so a
judgment saved during the fit queues the next one. The marker expires on its own, so a lost message
(broker restart) only delays the fit until the next judgment. Without a broker (the SQLite demo, tests)
the task runs in the process once the transaction commits, as exports do there; the marker then stays
for the debounce time, so at most one submit per GOTONG_AGGREGATION_DEBOUNCE_SECONDS pays for a fit
(the others would each refit the project on their request).
"""

from __future__ import annotations

import logging

from celery import shared_task
from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from kombu.exceptions import OperationalError as BrokerUnavailable

from annotation.aggregation.ranking import model_ranking_refit, ranking_applies
from annotation.aggregation.store import aggregation_applies, aggregation_refit
from annotation.models import Project

logger = logging.getLogger(__name__)

# A fit of 500,000 judgments takes seconds; a worker that died holding the lock frees it after this.
FIT_LOCK_SECONDS = 15 * 60


def _pending_key(project_id: int) -> str:
    return f"aggregation:pending:{project_id}"


def _fitting_key(project_id: int) -> str:
    return f"aggregation:fitting:{project_id}"


def debounce_seconds() -> float:
    return float(settings.GOTONG_AGGREGATION_DEBOUNCE_SECONDS)


def aggregation_request(*, project: Project) -> bool:
    """Ask for a fit of the project's model (or its ranking of models) after its judgments (or its
    model) changed; True when this call queued one. Costs one cache round trip and no query."""
    if not (aggregation_applies(project) or ranking_applies(project)):
        return False
    delay = debounce_seconds()
    in_process = settings.CELERY_TASK_ALWAYS_EAGER
    timeout = max(1, int(delay)) if in_process else int(delay) + FIT_LOCK_SECONDS
    if not cache.add(_pending_key(project.pk), 1, timeout=timeout):
        return False
    project_id = project.pk
    transaction.on_commit(lambda: _send(project_id, delay))
    return True


def _send(project_id: int, countdown: float) -> None:
    try:
        aggregation_fit.apply_async(args=[project_id], countdown=countdown)
    except BrokerUnavailable:
        # The marker stays until it expires; the next judgment after that asks again.
        logger.warning("aggregation_fit.not_sent", extra={"project": project_id}, exc_info=True)


@shared_task(name="annotation.aggregation_fit", acks_late=True, reject_on_worker_lost=True)
def aggregation_fit(project_id: int) -> int | None:
    """Fit and save the project's model, or its ranking of models; the id of the saved fit or ranking
    (None: nothing to fit)."""
    if not cache.add(_fitting_key(project_id), 1, timeout=FIT_LOCK_SECONDS):
        # Another worker is fitting this project: come back once it is likely done, so the judgments it
        # may have missed are fitted too (in the process, without a broker, it would only spin).
        if not settings.CELERY_TASK_ALWAYS_EAGER:
            _send(project_id, debounce_seconds())
        return None
    try:
        if not settings.CELERY_TASK_ALWAYS_EAGER:
            cache.delete(_pending_key(project_id))
        project = Project.objects.filter(pk=project_id).first()
        if project is None:
            return None
        saved = model_ranking_refit(project=project) if ranking_applies(project) else aggregation_refit(project=project)
        return saved.pk if saved is not None else None
    finally:
        cache.delete(_fitting_key(project_id))
