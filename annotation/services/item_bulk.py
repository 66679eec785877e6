"""Bulk actions of the item list: re-assign the open work of several items (approving several is a review
decision: qc.services.items_bulk_approve, on the items locked here).

Both are all or nothing: one transaction, every selected item locked and checked first; the first
refusal (an item of another project, one not submitted, a member who can't take the work) raises a
DomainError naming the item, and nothing is changed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext as _

from annotation.errors import IllegalTransition, InvalidInput, NotAllowed
from annotation.models import Assignment, Item, Membership, Project
from annotation.scope import member_values, project_scope, review_refusal
from annotation.selectors import STAFF_ROLES, items_visible_to

MAX_SELECTED = 500  # a page holds at most 100; a crafted POST can't lock a whole project
AUTHORING_OPEN = (Item.Status.DRAFT, Item.Status.REVISION_REQUESTED)


@dataclass(frozen=True)
class BulkResult:
    done: int
    review_moved: int = 0
    authoring_moved: int = 0


def items_locked_for_bulk(*, membership: Membership, item_ids: Sequence[int]) -> list[Item]:
    """The selected items of the member's view of the project, locked (by pk) for a bulk action; refused
    unless the member is staff and every id is an item they may see."""
    if membership.role not in STAFF_ROLES:
        raise NotAllowed(_("Only the project's reviewers and admins can act on several items at once."))
    ids = sorted({int(pk) for pk in item_ids})
    if not ids:
        raise InvalidInput(_("Select at least one item."))
    if len(ids) > MAX_SELECTED:
        raise InvalidInput(_("Select at most %(max)d items at once.") % {"max": MAX_SELECTED})
    # Through the member's view of the project: an item out of a national reviewer's scope is as absent
    # as another project's.
    items = list(
        items_visible_to(membership=membership)
        .select_for_update(of=("self",))
        .select_related("current_version")
        .filter(pk__in=ids)
        .order_by("pk")
    )
    missing = sorted(set(ids) - {item.pk for item in items})
    if missing:
        raise InvalidInput(_("No such item in this project: #%(id)d.") % {"id": missing[0]})
    return items


@transaction.atomic
def items_bulk_reassign(*, membership: Membership, item_ids: Sequence[int], to_user_id: int) -> BulkResult:
    """Move each selected item's open work to another active member: a submitted item's review (its
    claim) to a reviewer or admin who did not write it; a draft's or a sent-back item's writing (the
    authoring assignment and the authorship) to an annotator."""
    items = items_locked_for_bulk(membership=membership, item_ids=item_ids)
    target = (
        Membership.objects.select_related("user")
        .filter(project=membership.project, user_id=to_user_id, is_active=True)
        .first()
    )
    if target is None:
        raise InvalidInput(_("Choose an active member of this project to give the work to."))
    scope = project_scope(membership.project)
    values = (
        member_values(
            project=membership.project,
            scope=scope,
            user_ids={target.user_id, *(i.author_id for i in items if i.author_id)},
        )
        if scope
        else {}
    )
    review_moves: list[Item] = []
    author_moves: list[Item] = []
    for item in items:
        if item.status == Item.Status.SUBMITTED:
            _check_review_move(item, target, project=membership.project, scope=scope)
            review_moves.append(item)
        elif item.status in AUTHORING_OPEN and item.assignment_id is not None:
            _check_authoring_move(item, target, scope=scope, values=values)
            author_moves.append(item)
        else:
            raise IllegalTransition(
                _("Item #%(id)d is %(status)s: it has no open work to re-assign.")
                % {"id": item.pk, "status": item.get_status_display().lower()}
            )
    if review_moves:
        Item.objects.filter(pk__in=[item.pk for item in review_moves]).update(reviewer_id=target.user_id)
    if author_moves:
        _move_authoring(author_moves, target)
    return BulkResult(done=len(items), review_moved=len(review_moves), authoring_moved=len(author_moves))


def _check_review_move(item: Item, target: Membership, *, project: Project, scope: str) -> None:
    """A submitted item's review goes only to a reviewer or admin who did not write it and may decide on it."""
    if target.role not in STAFF_ROLES:
        raise NotAllowed(
            _("Item #%(id)d waits for review: %(user)s is not a reviewer.")
            % {"id": item.pk, "user": target.user.username}
        )
    if target.user_id in (item.author_id, item.current_version.created_by_id if item.current_version else None):
        raise NotAllowed(
            _("Item #%(id)d: %(user)s wrote it and can't review it.") % {"id": item.pk, "user": target.user.username}
        )
    # Given to a reviewer who may not decide on it, the item would wait in nobody's queue.
    if review_refusal(project=project, reviewer_id=target.user_id, author_id=item.author_id):
        raise NotAllowed(
            _("Item #%(id)d: %(user)s does not review items of this author's %(scope)s.")
            % {"id": item.pk, "user": target.user.username, "scope": scope}
        )


def _check_authoring_move(item: Item, target: Membership, *, scope: str, values: dict[int, str]) -> None:
    """A draft's or a sent-back item's writing goes only to an annotator of the author's scope value."""
    if target.role != Membership.Role.ANNOTATOR:
        raise NotAllowed(
            _("Item #%(id)d is being written: %(user)s is not an annotator.")
            % {"id": item.pk, "user": target.user.username}
        )
    # The author's scope value decides who reviews the item: the writing stays within it.
    if scope and values.get(target.user_id, "") != values.get(item.author_id or 0, ""):
        raise NotAllowed(
            _("Item #%(id)d: %(user)s is not of this author's %(scope)s.")
            % {"id": item.pk, "user": target.user.username, "scope": scope}
        )


def _move_authoring(author_moves: list[Item], target: Membership) -> None:
    """The items' authoring assignments and authorship to the target, refused where the target already
    writes for the unit (one authoring assignment per writer and unit)."""
    assignment_ids = {item.assignment_id for item in author_moves}
    assignments = list(Assignment.objects.select_for_update().filter(pk__in=assignment_ids).order_by("pk"))
    taken = set(
        Assignment.objects.filter(
            user_id=target.user_id, kind=Assignment.Kind.AUTHOR, concept_id__in=[a.concept_id for a in assignments]
        )
        .exclude(pk__in=assignment_ids)
        .values_list("concept_id", flat=True)
    )
    for item in author_moves:
        assignment = next(a for a in assignments if a.pk == item.assignment_id)
        if assignment.concept_id in taken:
            raise IllegalTransition(
                _("Item #%(id)d: %(user)s already writes for this unit.")
                % {"id": item.pk, "user": target.user.username}
            )
    # The unit's other items (a premise's six hypotheses) move with it: one writer per assignment.
    Assignment.objects.filter(pk__in=assignment_ids).update(user_id=target.user_id)
    Item.objects.filter(assignment_id__in=assignment_ids).update(author_id=target.user_id)
