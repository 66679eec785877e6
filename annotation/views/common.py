"""Helpers shared by the page views of annotation and qc."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django import forms
from django.contrib import messages
from django.http import HttpRequest

from annotation.errors import DomainError
from annotation.models import Item, ItemVersion, Membership, Project
from annotation.selectors import (
    ADMIN,
    ANNOTATOR,
    REVIEWER,
    items_needing_revision,
    payload_as_seen,
    sees_whole_project,
)
from annotation.task_types import get_task_type
from annotation.task_types.base import FieldChange, TaskType
from annotation.views.nav import judging_nav

ANY_ROLE = (ADMIN, REVIEWER, ANNOTATOR)
ADMIN_ONLY = (ADMIN,)
REVIEW_ROLES = (ADMIN, REVIEWER)
AUTHOR_ROLES = (ANNOTATOR,)
# Added to a queue's address after a save: the queue then says "saved, here is the next one" or, on its
# last page, that everything is done.
SAVED = "?saved=1"


def page_dir(project: Project) -> str:
    """The page's base direction follows the project's first language (Arabic -> rtl)."""
    return page_language(project)[1]


def page_language(project: Project) -> tuple[str, str]:
    """(code, direction) of the project's first language, in one query: the `lang` of its content
    containers and the page's base direction."""
    row = project.languages.order_by("position", "code").values_list("code", "direction").first()
    return (row[0], row[1] or "ltr") if row else ("", "ltr")


def content_direction(form: forms.Form, *, lang: str, direction: str) -> None:
    """The form's text fields (what an author or a judge writes: item text, justifications, comments) take
    the project language's `lang` and direction; its labels and buttons keep the interface's."""
    for field in form.fields.values():
        widget = field.widget
        if isinstance(widget, (forms.Textarea, forms.TextInput)) and not widget.is_hidden:
            widget.attrs["dir"] = direction or "auto"
            if lang:
                widget.attrs["lang"] = lang


def project_context(membership: Membership, **extra: Any) -> dict[str, Any]:
    project = membership.project
    return {
        "membership": membership,
        "project": project,
        "role": membership.role,
        "is_admin": membership.role == ADMIN,
        "is_reviewer": membership.role in REVIEW_ROLES,
        "is_annotator": membership.role == ANNOTATOR,
        # A national reviewer of a scoped project: no links to the project-wide report and dashboard.
        "sees_whole_project": sees_whole_project(membership=membership),
        **dict(zip(("page_lang", "page_dir"), page_language(project), strict=True)),
        "task_type": get_task_type(project.task_type),
        # Every page's navigation shows the judging queue and its count, so open work is seen from anywhere.
        **judging_nav(membership),
        **extra,
    }


def posted(request: HttpRequest, *, files: bool = False):
    """The POST data (or files) to bind a form to, None on GET: an empty POST still binds, so it is validated."""
    if request.method != "POST":
        return None
    return request.FILES if files else request.POST


def show_domain_error(request: HttpRequest, exc: DomainError) -> int:
    """Show a refused action as a message; returns the HTTP status the page should answer with."""
    messages.error(request, exc.message)
    return exc.http_status


REVISIONS_SHOWN = 50


def revisions_for(*, project: Project, user) -> list[Item]:
    """Items sent back to this author, each with `last_review` (the request: feedback, error types)."""
    items = list(
        items_needing_revision(project=project, user=user).prefetch_related(
            "reviews__error_types", "reviews__reviewer"
        )[:REVISIONS_SHOWN]
    )
    for item in items:
        reviews = list(item.reviews.all())
        item.last_review = reviews[-1] if reviews else None
    return items


@dataclass(frozen=True)
class HistoryRow:
    version: ItemVersion
    changes: list[FieldChange]
    review: Any  # qc.Review, reached through the reverse relation so annotation never imports qc
    payload: dict[str, Any]  # the version's payload as the viewer is shown it (payload_as_seen)
    note: str  # the version's note; an annotator sees only their own (a run's names its model)


def item_history(*, item: Item, task_type: TaskType, membership: Membership | None = None) -> list[HistoryRow]:
    """Every version with its diff against the previous one, and the review of that version (if any).
    With a membership, payloads and diffs are the ones that member is shown (payload_as_seen).

    Three queries whatever the history's length: versions, reviews, their error types.
    """
    versions = list(item.versions.select_related("created_by").order_by("number"))
    reviews = {
        review.item_version_id: review
        for review in item.reviews.select_related("reviewer").prefetch_related("error_types")
    }
    rows: list[HistoryRow] = []
    previous: dict[str, Any] | None = None
    for version in versions:
        payload, note = version.payload, version.note
        if membership is not None:
            payload = payload_as_seen(membership=membership, item=item, payload=payload) or {}
            if membership.role not in REVIEW_ROLES and version.created_by_id != membership.user_id:
                note = ""
        changes = task_type.diff(previous, payload)
        rows.append(
            HistoryRow(version=version, changes=changes, review=reviews.get(version.pk), payload=payload, note=note)
        )
        previous = payload
    return rows


def previous_submitted_diff(
    *, rows: list[HistoryRow], task_type: TaskType
) -> tuple[ItemVersion | None, list[FieldChange]]:
    """The last submitted version before the current one, and what changed since (for reviewers)."""
    earlier = [r.version for r in rows[:-1] if r.version.submitted_at is not None]
    if not earlier:
        return None, []
    return earlier[-1], task_type.diff(earlier[-1].payload, rows[-1].version.payload)
