"""Reads the API needs beyond annotation.selectors, scoped the same way (a foreign id is a 404)."""

from __future__ import annotations

from django.contrib.auth.base_user import AbstractBaseUser
from django.db.models import F, OuterRef, QuerySet, Subquery
from django.db.models.functions import Coalesce
from django.db.models.query import prefetch_related_objects
from django.http import Http404

from annotation.models import Assignment, Concept, Item, Membership, Project
from annotation.selectors import item_for_member, items_visible_to, payload_as_seen, projects_for_user
from annotation.selectors.items import ItemFilters, items_filtered
from annotation.services.screening import work_gate


def projects_with_role(*, user: AbstractBaseUser) -> QuerySet[Project]:
    """The user's projects, each annotated with `my_role`."""
    role = Membership.objects.filter(project=OuterRef("pk"), user=user, is_active=True).values("role")[:1]
    return (
        projects_for_user(user=user)
        .annotate(my_role=Subquery(role))
        .prefetch_related("languages")
        .order_by("name", "id")
    )


def members_of(*, project: Project) -> QuerySet[Membership]:
    return Membership.objects.filter(project=project).select_related("user").order_by("id")


def member_of(*, project: Project, membership_id: int) -> Membership:
    membership = members_of(project=project).select_related("project").filter(pk=membership_id).first()
    if membership is None:
        raise Http404("No such member.")
    return membership


def concepts_of(*, project: Project, category_id: int | None = None) -> QuerySet[Concept]:
    qs = Concept.objects.filter(project=project).select_related("category")
    if category_id is not None:
        qs = qs.filter(category_id=category_id)
    return qs.order_by("category__name", "name", "id")


def assignments_of(
    *, membership: Membership, kind: str | None = None, status: str | None = None
) -> QuerySet[Assignment]:
    """The member's own assignments, with `item_pk`: the item written for it, or the item it judges."""
    qs = (
        Assignment.objects.filter(project_id=membership.project_id, user_id=membership.user_id)
        .select_related("concept__category")
        .annotate(item_pk=Coalesce(F("item__id"), F("target_item_id")))
    )
    if kind:
        qs = qs.filter(kind=kind)
    if status:
        qs = qs.filter(status=status)
    return qs.order_by("position", "id")


def assignment_of(*, membership: Membership, assignment_id: int) -> Assignment:
    assignment = assignments_of(membership=membership).filter(pk=assignment_id).first()
    if assignment is None:
        raise Http404("No such assignment.")
    work_gate(project=membership.project, user_id=membership.user_id)
    return assignment


def items_of(
    *, membership: Membership, status: str | None = None, filters: ItemFilters | None = None
) -> QuerySet[Item]:
    qs = items_visible_to(membership=membership).select_related("concept__category", "current_version", "author")
    if status:
        qs = qs.filter(status=status)
    if filters is not None:
        qs = items_filtered(qs, filters)
    return qs.order_by("id")


def item_detail(*, membership: Membership, item_id: int) -> Item:
    """An item the member may see, with its whole history loaded in a fixed number of queries. Its
    payloads (current and every version's, hence the diff) are the ones the member is shown
    (payload_as_seen); the instances are for rendering only, never saved."""
    item = item_for_member(membership=membership, item_id=item_id)
    prefetch_related_objects([item], "versions", "reviews__reviewer", "reviews__error_types")
    for version in [item.current_version, *item.versions.all()]:
        if version is not None:
            version.payload = payload_as_seen(membership=membership, item=item, payload=version.payload)
    return item
