"""Review decisions. Each locks the item, checks that the reviewed version is still the one waiting,
and refuses anything else, so two reviewers deciding at once can't both win."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from annotation import limits
from annotation.errors import Conflict, DomainError, IllegalTransition, InvalidInput, NotAllowed
from annotation.models import Item, ItemVersion, Membership, Project
from annotation.scope import review_refusal, reviewable_authors_q
from annotation.services.item_bulk import BulkResult, items_locked_for_bulk
from annotation.task_types import get_task_type
from qc.models import ErrorType, Review
from qc.review_queue import review_queue_order

REVIEWER_ROLES = (Membership.Role.REVIEWER, Membership.Role.ADMIN)


def error_types_seed(*, project: Project, error_types: Sequence[tuple[str, str, str]]) -> int:
    existing = set(ErrorType.objects.filter(project=project).values_list("code", flat=True))
    # Stored as the English msgids whatever language the request runs in: ErrorType.label_shown translates.
    with translation.override(None):
        rows = [
            ErrorType(project=project, code=code, label=str(label), description=str(description), position=i)
            for i, (code, label, description) in enumerate(error_types)
            if code not in existing
        ]
    ErrorType.objects.bulk_create(rows)
    return len(rows)


def error_types_seed_defaults(*, project: Project) -> int:
    """A new project's QC taxonomy: its task type's default error types (annotation.hooks calls it)."""
    return error_types_seed(project=project, error_types=get_task_type(project.task_type).default_error_types)


def _active_reviewer_ids(project: Project):
    return Membership.objects.filter(project=project, role__in=REVIEWER_ROLES, is_active=True).values("user_id")


def reviewable_items(*, project: Project, reviewer: AbstractBaseUser):
    """Submitted items this reviewer may take: unclaimed, theirs, or held by a reviewer who left; in a
    scoped project (annotation.scope) only items of authors in the reviewer's scope."""
    return Item.objects.filter(project=project, status=Item.Status.SUBMITTED).filter(
        Q(reviewer__isnull=True) | Q(reviewer=reviewer) | ~Q(reviewer__in=_active_reviewer_ids(project)),
        reviewable_authors_q(project=project, reviewer_id=reviewer.pk),
    )


@transaction.atomic
def review_claim_next(*, project: Project, reviewer: AbstractBaseUser) -> Item | None:
    """Take the next item to review in the queue's order (qc.review_queue): resubmissions this reviewer
    sent back first, then items they already opened, then the oldest submissions.

    Claiming sets `item.reviewer`, which hides the item from other reviewers' queues; SKIP LOCKED keeps
    two reviewers asking at the same moment from taking the same one.
    """
    candidates = (
        reviewable_items(project=project, reviewer=reviewer)
        .exclude(author=reviewer)
        .exclude(current_version__created_by=reviewer)
        .select_for_update(skip_locked=True, of=("self",))
    )
    item = review_queue_order(candidates, reviewer=reviewer).first()
    if item is not None and item.reviewer_id != reviewer.pk:
        item.reviewer = reviewer
        item.save(update_fields=["reviewer"])
    return item


def _lock_for_decision(*, item_id: int, version_id: int, reviewer: AbstractBaseUser) -> Item:
    item = Item.objects.select_for_update(of=("self",)).select_related("project", "current_version").get(pk=item_id)
    is_reviewer = Membership.objects.filter(
        project=item.project, user=reviewer, role__in=REVIEWER_ROLES, is_active=True
    ).exists()
    if not is_reviewer:
        raise NotAllowed(_("Only the project's reviewers can decide on items."))
    if item.author_id == reviewer.pk:
        raise NotAllowed(_("You can't review your own item."))
    if item.current_version is not None and item.current_version.created_by_id == reviewer.pk:
        raise NotAllowed(_("You can't review a version you wrote."))  # e.g. a reviewer's revision of a model's draft
    refusal = review_refusal(project=item.project, reviewer_id=reviewer.pk, author_id=item.author_id)
    if refusal:
        raise NotAllowed(refusal)
    if item.current_version_id != version_id:
        raise Conflict(_("This item has changed since you opened it; reload to see the current version."))
    if item.status != Item.Status.SUBMITTED:
        if Review.objects.filter(item_version_id=version_id).exists():
            raise Conflict(_("Another reviewer has already decided on this version."))
        raise IllegalTransition(
            _("Only submitted items can be reviewed; this one is %(status)s.")
            % {"status": item.get_status_display().lower()}
        )
    return item


def _decide(
    *,
    item_id: int,
    version_id: int,
    reviewer: AbstractBaseUser,
    decision: str,
    new_status: str,
    feedback: str = "",
    error_type_codes: Sequence[str] = (),
) -> Review:
    limits.check_text(feedback, field="feedback", max_length=limits.FEEDBACK)
    item = _lock_for_decision(item_id=item_id, version_id=version_id, reviewer=reviewer)
    error_types = list(ErrorType.objects.filter(project=item.project, code__in=list(error_type_codes)))
    unknown = set(error_type_codes) - {e.code for e in error_types}
    if unknown:
        raise InvalidInput(
            _("Unknown error type(s): %(codes)s.") % {"codes": ", ".join(sorted(unknown))},
            field_errors={"error_types": [_("Unknown.")]},
        )
    try:
        with transaction.atomic():
            review = Review.objects.create(
                item=item, item_version_id=version_id, reviewer=reviewer, decision=decision, feedback=feedback
            )
    except IntegrityError:
        # The one-review-per-version constraint: someone decided this version first.
        raise Conflict(_("Another reviewer has already decided on this version.")) from None
    review.error_types.set(error_types)
    item.status = new_status
    item.reviewer = reviewer
    item.status_reason = feedback if new_status == Item.Status.REJECTED else ""
    item.save(update_fields=["status", "reviewer", "status_reason", "updated_at"])
    unit_variants = get_task_type(item.task_type).unit_variants
    if unit_variants is not None:
        unit_variants.item_reviewed(
            item=item, approved=decision == Review.Decision.APPROVE, error_codes=[e.code for e in error_types]
        )
    return review


@transaction.atomic
def review_approve(*, item_id: int, version_id: int, reviewer: AbstractBaseUser, feedback: str = "") -> Review:
    return _decide(
        item_id=item_id,
        version_id=version_id,
        reviewer=reviewer,
        decision=Review.Decision.APPROVE,
        new_status=Item.Status.APPROVED,
        feedback=feedback.strip(),
    )


@transaction.atomic
def items_bulk_approve(*, membership: Membership, item_ids: Sequence[int]) -> BulkResult:
    """Approve every selected item of the item list, each as the member's own review (the same checks as
    one by one: only submitted items, never one's own). All or nothing: the first refusal names the item
    and nothing is changed."""
    items = items_locked_for_bulk(membership=membership, item_ids=item_ids)
    for item in items:
        if item.status != Item.Status.SUBMITTED:
            raise IllegalTransition(
                _("Item #%(id)d is %(status)s: only submitted items can be approved.")
                % {"id": item.pk, "status": item.get_status_display().lower()}
            )
    for item in items:
        try:
            review_approve(item_id=item.pk, version_id=item.current_version_id, reviewer=membership.user)
        except DomainError as exc:
            raise type(exc)(_("Item #%(id)d: %(reason)s") % {"id": item.pk, "reason": exc.message}) from None
    return BulkResult(done=len(items))


@transaction.atomic
def review_request_revision(
    *, item_id: int, version_id: int, reviewer: AbstractBaseUser, feedback: str, error_type_codes: Sequence[str]
) -> Review:
    errors: dict[str, list[str]] = {}
    if not feedback.strip():
        errors["feedback"] = [_("Tell the author what to change.")]
    if not error_type_codes:
        errors["error_types"] = [_("Choose at least one error type.")]
    if errors:
        raise InvalidInput(_("A revision request needs feedback and at least one error type."), field_errors=errors)
    return _decide(
        item_id=item_id,
        version_id=version_id,
        reviewer=reviewer,
        decision=Review.Decision.REVISE,
        new_status=Item.Status.REVISION_REQUESTED,
        feedback=feedback.strip(),
        error_type_codes=error_type_codes,
    )


@transaction.atomic
def review_reject(
    *, item_id: int, version_id: int, reviewer: AbstractBaseUser, feedback: str, error_type_codes: Sequence[str] = ()
) -> Review:
    if not feedback.strip():
        raise InvalidInput(_("Say why the item is rejected."), field_errors={"feedback": [_("Required.")]})
    return _decide(
        item_id=item_id,
        version_id=version_id,
        reviewer=reviewer,
        decision=Review.Decision.REJECT,
        new_status=Item.Status.REJECTED,
        feedback=feedback.strip(),
        error_type_codes=error_type_codes,
    )


def review_decide(
    *,
    item_id: int,
    version_id: int,
    reviewer: AbstractBaseUser,
    decision: str,
    feedback: str = "",
    error_type_codes: Sequence[str] = (),
) -> Review:
    """One entry point for the three decisions, used by the review page and the API alike."""
    if decision == Review.Decision.APPROVE:
        return review_approve(item_id=item_id, version_id=version_id, reviewer=reviewer, feedback=feedback)
    service = review_request_revision if decision == Review.Decision.REVISE else review_reject
    return service(
        item_id=item_id, version_id=version_id, reviewer=reviewer, feedback=feedback, error_type_codes=error_type_codes
    )


# --- drafts without an author ---------------------------------------------------------------------
# A model's draft (source llm_gen / llm_adapt) has nobody to send it back to: a reviewer or admin of
# the project writes the revision, and someone else decides on it (nobody decides on a version they
# wrote: review_queue and the decisions check the current version's writer too).
DRAFT_SOURCES = (Item.Source.LLM_GEN, Item.Source.LLM_ADAPT)
DRAFT_REVISER_ROLES = (Membership.Role.REVIEWER, Membership.Role.ADMIN)


@transaction.atomic
def draft_revise(*, item_id: int, user: AbstractBaseUser, data: dict[str, Any], note: str = "") -> Item:
    """A reviewer's or admin's corrected version of an LLM draft sent back for revision; submitted at once.

    Refused, with nothing changed: not a reviewer or admin of the project, an item not from a model,
    an item that is not waiting for a revision, a payload the task type refuses."""
    item = Item.objects.select_for_update(of=("self",)).select_related("project", "current_version").get(pk=item_id)
    allowed = Membership.objects.filter(
        project=item.project, user=user, role__in=DRAFT_REVISER_ROLES, is_active=True
    ).exists()
    if not allowed:
        raise NotAllowed(_("Only the project's reviewers and admins can revise model drafts."))
    if item.source not in DRAFT_SOURCES:
        raise IllegalTransition(_("Only a model's drafts are revised here; an author revises their own item."))
    if item.status != Item.Status.REVISION_REQUESTED:
        raise IllegalTransition(
            _("Only a draft sent back for revision can be revised; this one is %(status)s.")
            % {"status": item.get_status_display().lower()}
        )
    task_type = get_task_type(item.task_type)
    payload = task_type.normalize_payload(data)
    check = task_type.check_payload(payload, concept=None)
    if check.errors:
        raise InvalidInput(_("The revision can't be submitted."), field_errors=dict(check.errors))
    note = limits.check_text(note.strip(), field="note", max_length=300) or "revision"
    number = item.current_version.number + 1 if item.current_version else 1
    version = ItemVersion.objects.create(
        item=item, number=number, payload=payload, created_by=user, note=note, submitted_at=timezone.now()
    )
    item.current_version = version
    item.status = Item.Status.SUBMITTED
    item.reviewer = None  # not back to the sticky reviewer: whoever wrote this version can't decide on it
    item.save(update_fields=["current_version", "status", "reviewer", "updated_at"])
    return item
