"""Reports too big to build while a page waits: built by a Celery worker, shown from a snapshot.

A project with at most GOTONG_REPORT_INLINE_JUDGMENTS judgments gets its report built on the request,
as before (measured: ~3 s at 100,000 judgments on a loaded 2-core machine; the default, 50,000, keeps
an inline build near a second or two). A bigger one is built in the background (qc.tasks.build_report) from the same
plain rows or columns and the same task-type hook, and its page shows the last snapshot with when it was built and
from how many judgments, or the build's stage while the first one runs. A snapshot is rebuilt when the
project's judgment count changed or it is older than GOTONG_REPORT_MAX_AGE_SECONDS (answer edits keep
the count), and on request.
"""

from __future__ import annotations

import logging
import time
from dataclasses import asdict, dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from kombu.exceptions import OperationalError as BrokerUnavailable

from annotation.models import Judgment, Project
from qc.models import ReportSnapshot
from qc.reports import report_sections, task_type_report
from qc.reports.languages import language_breakdown
from qc.task_names import BUILD_REPORT, task_send

logger = logging.getLogger(__name__)

# A build whose worker died leaves building_since set: after this long another request takes over.
BUILD_STALE = timedelta(minutes=15)


def inline_limit() -> int:
    return settings.GOTONG_REPORT_INLINE_JUDGMENTS


def max_age() -> timedelta:
    return timedelta(seconds=settings.GOTONG_REPORT_MAX_AGE_SECONDS)


@dataclass(frozen=True)
class PageReport:
    """What a report page shows: the report (None while the first build runs) and, for a background
    report, its snapshot (when, from how many judgments, the running build's stage)."""

    report: dict[str, Any] | None
    snapshot: ReportSnapshot | None = None
    building: bool = False


def _judgments(project: Project) -> int:
    return Judgment.objects.filter(project=project).count()


def report_for_page(*, project: Project) -> PageReport:
    judgments = _judgments(project)
    if judgments <= inline_limit():
        return PageReport(report=task_type_report(project=project))
    snapshot, _ = ReportSnapshot.objects.get_or_create(project=project)
    now = timezone.now()
    if snapshot.built_at is None or snapshot.judgments != judgments or now - snapshot.built_at > max_age():
        report_snapshot_request(project=project)
        snapshot.refresh_from_db()
    report = {"project": project.slug, **snapshot.data} if snapshot.data is not None else None
    return PageReport(report=report, snapshot=snapshot, building=snapshot.building_since is not None)


def report_snapshot_request(*, project: Project) -> bool:
    """Queue a build unless one is running (conditional update: one request queues it); True if queued."""
    now = timezone.now()
    ReportSnapshot.objects.get_or_create(project=project)
    claimed = (
        ReportSnapshot.objects.filter(project=project)
        .filter(Q(building_since__isnull=True) | Q(building_since__lt=now - BUILD_STALE))
        .update(building_since=now, stage="queued", error="")
    )
    if claimed:
        transaction.on_commit(lambda: _send_build(project.pk))
    return bool(claimed)


def _send_build(project_id: int) -> None:
    # The page still shows the last snapshot; with the broker down the build is asked for again once
    # building_since is BUILD_STALE, instead of the page failing.
    try:
        task_send(BUILD_REPORT, args=[project_id])
    except BrokerUnavailable:
        logger.warning("report_snapshot.not_sent", extra={"project": project_id}, exc_info=True)


def _stage(project_id: int, stage: str) -> None:
    ReportSnapshot.objects.filter(project_id=project_id).update(stage=stage)


def report_snapshot_build(*, project_id: int) -> ReportSnapshot:
    """Build the project's report (qc.reports.report_sections) and save it as the snapshot, stages saved as
    it goes."""
    project = Project.objects.get(pk=project_id)
    started = time.perf_counter()
    ReportSnapshot.objects.get_or_create(project=project)
    judgments = _judgments(project)
    try:
        sections = report_sections(project=project, stage=lambda name: _stage(project_id, name))
        languages = [asdict(row) for row in language_breakdown(project=project)]
        _stage(project_id, "saving")
    except Exception as error:
        ReportSnapshot.objects.filter(project_id=project_id).update(
            building_since=None, stage="", error=f"{type(error).__name__}: {error}"
        )
        raise
    ReportSnapshot.objects.filter(project_id=project_id).update(
        data=sections,
        languages=languages,
        built_at=timezone.now(),
        build_seconds=round(time.perf_counter() - started, 3),
        judgments=judgments,
        building_since=None,
        stage="",
        error="",
    )
    return ReportSnapshot.objects.get(project_id=project_id)
