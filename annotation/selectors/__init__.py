"""Permission-scoped reads. Views and the API get objects only through these, so a member of another
project gets a 404 (not a 403 that would confirm the object exists)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.db.models import Count, Exists, OuterRef, Q, QuerySet
from django.http import Http404
from django.utils import timezone
from django.utils.translation import gettext

from annotation.errors import NotAllowed
from annotation.models import Assignment, Category, Invitation, Item, Membership, Project
from annotation.scope import project_scope, reviewable_authors_q
from annotation.task_types import get_task_type

ADMIN = Membership.Role.ADMIN
REVIEWER = Membership.Role.REVIEWER
ANNOTATOR = Membership.Role.ANNOTATOR
STAFF_ROLES = (ADMIN, REVIEWER)


def projects_for_user(*, user: AbstractBaseUser) -> QuerySet[Project]:
    if not user.is_authenticated:
        return Project.objects.none()
    return Project.objects.filter(memberships__user=user, memberships__is_active=True).distinct()


def membership_for(*, user: AbstractBaseUser, slug: str, roles: tuple[str, ...] | None = None) -> Membership:
    """The user's active membership in the project `slug`, or 404 (also when the role doesn't fit)."""
    if not user.is_authenticated:
        raise Http404("No such project.")
    qs = Membership.objects.select_related("project").filter(user=user, project__slug=slug, is_active=True)
    if roles is not None:
        qs = qs.filter(role__in=roles)
    membership = qs.first()
    if membership is None:
        raise Http404("No such project.")
    return membership


def invitations_for_user(*, user: AbstractBaseUser) -> QuerySet[Invitation]:
    """Pending invitations addressed to this user's name."""
    if not user.is_authenticated:
        return Invitation.objects.none()
    return (
        Invitation.objects.filter(username=user.get_username(), status=Invitation.Status.PENDING)
        .select_related("project", "invited_by")
        .order_by("-created_at", "-id")
    )


def invitation_for_user(*, user: AbstractBaseUser, invitation_id: int) -> Invitation:
    """One pending invitation addressed to this user, or 404 (anyone else's looks like none)."""
    invitation = invitations_for_user(user=user).filter(pk=invitation_id).first()
    if invitation is None:
        raise Http404("No such invitation.")
    return invitation


def items_visible_to(*, membership: Membership) -> QuerySet[Item]:
    """The items a member may see and act on: every page, API view, bulk action and review page gets
    items through here. Admins: every item of the project; annotators: the ones they wrote; reviewers:
    every item, or in a scoped project (annotation.scope) only those of authors in their scope."""
    qs = Item.objects.filter(project=membership.project)
    if membership.role == ANNOTATOR:
        return qs.filter(author=membership.user)
    if membership.role == REVIEWER:
        return qs.filter(reviewable_authors_q(project=membership.project, reviewer_id=membership.user_id))
    return qs


def payload_as_seen(*, membership: Membership, item: Item, payload: dict[str, Any] | None) -> dict[str, Any] | None:
    """An item's payload as this member is shown it on the item page, its history and the item API.
    Reviewers and admins see all of it (judging quality needs the models); annotators - the writer, who
    may also judge - what the task type's payload_for_annotator keeps (e.g. no model names, no response
    ids, the responses in their own rating order)."""
    if payload is None or membership.role in (ADMIN, REVIEWER):
        return payload
    return get_task_type(item.task_type).payload_for_annotator(
        payload, viewer_id=membership.user_id, item_id=item.pk, seed=membership.project.plan_seed
    )


def sees_whole_project(*, membership: Membership) -> bool:
    """Whether the member's view of the items is the whole project: what the project-wide aggregates
    (report, dashboard, benchmark results) need, which are computed for the project, not per scope."""
    return membership.role == ADMIN or (membership.role == REVIEWER and not project_scope(membership.project))


def whole_project_check(*, membership: Membership) -> None:
    """Refuse (NotAllowed, 403) a project-wide aggregate to a member who sees a part of the project: a
    national reviewer of a scoped project sees their scope's items only, and the project's report would
    show the other countries' numbers."""
    if not sees_whole_project(membership=membership):
        raise NotAllowed(
            gettext("This page covers the whole project; you review a part of it. Your items are in the item list.")
        )


def whole_project_member(*, user: AbstractBaseUser, slug: str, roles: tuple[str, ...]) -> Membership:
    """`membership_for` for a page of project-wide aggregates (whole_project_check)."""
    membership = membership_for(user=user, slug=slug, roles=roles)
    whole_project_check(membership=membership)
    return membership


def item_for_member(*, membership: Membership, item_id: int) -> Item:
    item = (
        items_visible_to(membership=membership)
        .select_related("concept__category", "current_version", "author", "reviewer", "assignment")
        .filter(pk=item_id)
        .first()
    )
    if item is None:
        raise Http404("No such item.")
    return item


def assignment_for_user(*, project: Project, user: AbstractBaseUser, assignment_id: int) -> Assignment:
    assignment = (
        Assignment.objects.select_related("concept__category", "project")
        .filter(project=project, user=user, pk=assignment_id)
        .first()
    )
    if assignment is None:
        raise Http404("No such assignment.")
    from annotation.services.screening import work_gate  # selectors load before services

    work_gate(project=project, user_id=user.pk)
    return assignment


def assignment_current(*, project: Project, user: AbstractBaseUser, kind: str) -> Assignment | None:
    """An authoring assignment the user has open (claimed, item not yet submitted), to resume it."""
    return (
        Assignment.objects.select_related("concept__category")
        .filter(
            project=project, user=user, kind=kind, status=Assignment.Status.ACTIVE, lease_expires_at__gte=timezone.now()
        )
        .order_by("position", "id")
        .first()
    )


def author_progress(*, project: Project, user: AbstractBaseUser) -> list[dict]:
    """Per category: done and total authoring assignments for this user ("n of N"); work a reviewer sent
    back is not done until it is submitted again."""
    sent_back = Item.objects.filter(assignment=OuterRef("pk"), status=Item.Status.REVISION_REQUESTED)
    rows = (
        Assignment.objects.filter(project=project, user=user, kind=Assignment.Kind.AUTHOR)
        .exclude(status=Assignment.Status.CANCELLED)
        .annotate(sent_back=Exists(sent_back))
        .values("concept__category_id", "concept__category__name")
        .annotate(total=Count("id"), done=Count("id", filter=Q(status=Assignment.Status.DONE, sent_back=False)))
        .order_by("concept__category__name")
    )
    return [
        {
            "category_id": r["concept__category_id"],
            "category": r["concept__category__name"],
            "done": r["done"],
            "total": r["total"],
        }
        for r in rows
    ]


def items_needing_revision(*, project: Project, user: AbstractBaseUser) -> QuerySet[Item]:
    return (
        Item.objects.filter(project=project, author=user, status=Item.Status.REVISION_REQUESTED)
        .select_related("concept__category", "assignment")
        .order_by("updated_at", "id")
    )


def categories_with_counts(*, project: Project) -> QuerySet[Category]:
    return Category.objects.filter(project=project).annotate(concept_count=Count("concepts")).order_by("name")


def author_payloads(*, project: Project, user: AbstractBaseUser) -> list[dict]:
    """The current payloads of this author's items in the project (for the task type's summary panel)."""
    return list(
        Item.objects.filter(project=project, author=user, current_version__isnull=False)
        .order_by()
        .values_list("current_version__payload", flat=True)
    )


def unit_items_besides(*, assignment: Assignment, limit: int = 200) -> list:
    """The other items written for the assignment's catalog unit (any author or an import), submitted or
    later, oldest first: what a task type's author form may offer (UnitVariants.author_form_kwargs)."""
    from annotation.task_types.base import UnitItem

    if assignment.concept_id is None:
        return []
    rows = (
        Item.objects.filter(project_id=assignment.project_id, concept_id=assignment.concept_id)
        .exclude(assignment_id=assignment.pk)
        .exclude(status__in=(Item.Status.DRAFT, Item.Status.REJECTED))
        .order_by("pk")
        .values_list("pk", "external_id", "status", "current_version__payload")[:limit]
    )
    return [
        UnitItem(item_id=pk, external_id=ext, status=status, payload=payload or {}) for pk, ext, status, payload in rows
    ]


def unit_catalog(*, project: Project, slot_key: str = "") -> dict[str, list[str]]:
    """The project's categories, each with the names of its concepts an author may pick, in catalog order.
    Writing slots (concepts whose data has `slot_key` true) are left out, in the database: a project may
    hold thousands of them."""
    concepts = project.concepts.filter(retired_at__isnull=True)  # a retired unit is not offered to writers
    if slot_key:
        # Not exclude(): a unit without the key has a NULL there, and NOT (NULL = true) drops it too.
        concepts = concepts.filter(Q(**{f"data__{slot_key}__isnull": True}) | ~Q(**{f"data__{slot_key}": True}))
    catalog: dict[str, list[str]] = {}
    for category, name in concepts.order_by("category__name", "name").values_list("category__name", "name"):
        catalog.setdefault(category, []).append(name)
    return catalog
