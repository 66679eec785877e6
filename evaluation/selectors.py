"""Reads of evaluation, scoped to what the caller may see."""

from __future__ import annotations

import time
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.db.models import QuerySet
from django.http import Http404

from annotation.models import Project
from evaluation.models import Call, Endpoint, Run


def run_summary(run: Run) -> dict[str, Any]:
    return {
        "id": run.pk,
        "kind": run.kind,
        "status": run.status,
        "total": run.total or 0,
        "done": run.calls_done,
        "failed": run.calls_failed,
        "progress": run.progress,
        "prompt_tokens": run.prompt_tokens,
        "completion_tokens": run.completion_tokens,
        "cost": str(run.cost),
        "calls_per_second": run.calls_per_second,
        "error": run.error,
        "project": run.project.slug if run.project_id else None,
        "endpoints": sorted(run.endpoints.values_list("name", flat=True)),
    }


def run_wait(*, run_id: int, timeout: float, poll: float = 0.5) -> Run:
    """Wait (for a CLI's --wait) until the run is no longer pending or running."""
    deadline = time.monotonic() + timeout
    while True:
        run = Run.objects.get(pk=run_id)
        if not run.is_active or time.monotonic() > deadline:
            return run
        time.sleep(poll)


def endpoints_for_staff(*, user: AbstractBaseUser) -> QuerySet[Endpoint]:
    if not (user.is_authenticated and user.is_staff):
        raise Http404("No such page.")
    return Endpoint.objects.order_by("name")


def endpoint_for_staff(*, user: AbstractBaseUser, endpoint_id: int) -> Endpoint:
    endpoint = endpoints_for_staff(user=user).filter(pk=endpoint_id).first()
    if endpoint is None:
        raise Http404("No such endpoint.")
    return endpoint


def runs_for_project(*, project: Project) -> QuerySet[Run]:
    return Run.objects.filter(project=project).select_related("created_by").prefetch_related("endpoints")


def run_for_project(*, project: Project, run_id: int) -> Run:
    run = runs_for_project(project=project).filter(pk=run_id).first()
    if run is None:
        raise Http404("No such run.")
    return run


def calls_for_run(*, run: Run) -> QuerySet[Call]:
    return Call.objects.filter(run=run).select_related("endpoint").defer("response", "logprobs", "request")


def call_for_run(*, run: Run, call_id: int) -> Call:
    call = Call.objects.filter(run=run, pk=call_id).select_related("endpoint").first()
    if call is None:
        raise Http404("No such call.")
    return call
