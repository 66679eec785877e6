"""Shared helpers for page tests (annotation and qc)."""

from __future__ import annotations

from django.contrib.auth import get_user_model

from annotation.models import (
    AnnotatorProfile,
    Assignment,
    Category,
    Concept,
    Invitation,
    Item,
    ItemVersion,
    Judgment,
    Membership,
    Project,
    ProjectLanguage,
)
from annotation.services.assignments import assignment_plan_authoring
from annotation.services.items import item_submit
from qc.models import ErrorType, Review

SNAPSHOT_MODELS = (
    get_user_model(),
    Project,
    ProjectLanguage,
    Membership,
    AnnotatorProfile,
    Invitation,
    Category,
    Concept,
    Assignment,
    Item,
    ItemVersion,
    Judgment,
    Review,
    Review.error_types.through,
    ErrorType,
)


def db_snapshot() -> dict[str, list[dict]]:
    """Every row of every table the pages can touch: equal snapshots mean nothing changed."""
    return {model.__name__: list(model.objects.order_by("pk").values()) for model in SNAPSHOT_MODELS}


def first_assignment(project, user, concept_name: str = "kunjung") -> Assignment:
    return Assignment.objects.filter(project=project, user=user, concept__name=concept_name).order_by("id").first()


def submitted_item(csqa, payload: dict, *, annotator=None, other_than=None) -> Item:
    """Plan authoring (once) and submit an item on a "kunjung" concept not written yet.

    annotator: whose assignment to use (default: any); other_than: a user who must not be the author.
    """
    if not Assignment.objects.filter(project=csqa.project).exists():
        assignment_plan_authoring(project=csqa.project)
    candidates = Assignment.objects.filter(project=csqa.project, concept__name="kunjung", item__isnull=True)
    if annotator is not None:
        candidates = candidates.filter(user=annotator)
    if other_than is not None:
        candidates = candidates.exclude(user=other_than)
    assignment = candidates.select_related("user").order_by("id").first()
    return item_submit(assignment_id=assignment.pk, user=assignment.user, data=payload)


def author_post(payload: dict, *, action: str = "submit", justification: str = "") -> dict[str, str]:
    """The authoring form's POST body for a csqa payload."""
    data = {"question": payload["question"], "answer": payload.get("answer", ""), "action": action}
    for label, text in zip("abcde", payload["choices"], strict=True):
        data[f"choice_{label}"] = text
    data["justification"] = justification
    return data
