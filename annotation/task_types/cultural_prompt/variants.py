"""Variant requests (KALAHI's focus groups: "add a situation variant"). An admin, or a reviewer who asked
for a variant when the base prompt is then approved, asks for a personal-situation variant of an
approved base prompt. The request is a core authoring assignment (kind author, the base's unit as its
concept) whose `target_item` is the base prompt: the writer finds it in their authoring queue (first,
position 0), the author page preselects the base as "Variant of" with its shared parts filled in, and the
save refuses any other base. The variant is an item of its own with the base's id as `prompt_id`, so
report and export list it with its base once approved.

The writer is any active writer (not necessarily the base's author) who holds no authoring assignment
for that unit yet: the core allows one authoring assignment per writer and unit. Left to the service,
it is the free writer with the fewest open authoring assignments (then the lowest user id).
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import Count, Q
from django.utils.translation import gettext

from annotation.errors import InvalidInput
from annotation.models import Assignment, Item, Membership, Project
from annotation.services.screening import admitted_only
from annotation.task_types.cultural_prompt.payload import ids, is_base

TASK_TYPE = "cultural_prompt"
ADD_VARIANT = "add_variant"
OPEN = (Assignment.Status.PENDING, Assignment.Status.ACTIVE)


def base_id(item: Item) -> str:
    """The base prompt id of an item (its own id when it is a base prompt)."""
    payload = item.current_version.payload if item.current_version_id else {}
    return ids(payload, external_id=item.external_id, item_id=item.pk)[1]


def _is_base(item: Item) -> bool:
    payload = item.current_version.payload if item.current_version_id else {}
    variation, prompt_id = ids(payload, external_id=item.external_id, item_id=item.pk)
    return is_base(payload, variation=variation, prompt_id=prompt_id)


def base_item_of(item: Item) -> Item | None:
    """The approved base prompt of an item's group in its unit: the item itself when it is the base."""
    if _is_base(item):
        return item
    wanted = base_id(item)
    for other in (
        Item.objects.filter(project_id=item.project_id, concept_id=item.concept_id, status=Item.Status.APPROVED)
        .select_related("current_version")
        .order_by("pk")
    ):
        if _is_base(other) and base_id(other) == wanted:
            return other
    return None


def requested_base(assignment: Any) -> Item | None:
    """The base prompt an authoring assignment asks a variant of, or None for planned authoring."""
    if assignment.kind != Assignment.Kind.AUTHOR or assignment.target_item_id is None:
        return None
    return Item.objects.select_related("current_version").get(pk=assignment.target_item_id)


def free_writers(*, project: Project, concept_id: int) -> list[Membership]:
    """Active (admitted) writers holding no authoring assignment for the unit, fewest open authoring
    assignments first, then by user id."""
    busy = Assignment.objects.filter(project=project, kind=Assignment.Kind.AUTHOR, concept_id=concept_id).values(
        "user_id"
    )
    writers = admitted_only(
        Membership.objects.filter(project=project, role=Membership.Role.ANNOTATOR, is_active=True), project=project
    ).exclude(user_id__in=busy)
    return list(
        writers.select_related("user")
        .annotate(
            open_work=Count(
                "user__assignments",
                filter=Q(
                    user__assignments__project=project,
                    user__assignments__kind=Assignment.Kind.AUTHOR,
                    user__assignments__status__in=OPEN,
                ),
            )
        )
        .order_by("open_work", "user_id")
    )


def _writer_name(membership: Membership) -> str:
    return membership.code or membership.user.get_username()


@transaction.atomic
def variant_request(*, project: Project, base_item_id: Any, writer_id: Any = None) -> Assignment:
    """Ask for a variant of the approved base prompt `base_item_id`, written by `writer_id` (a user id)
    or, when None, by the free writer with the least open authoring work. Refused with nothing created:
    an item that is no approved base prompt of the project, a writer who is not an active writer or who
    already writes for the unit, no free writer."""
    # The planner's lock: a plan and a request never interleave.
    Project.objects.select_for_update().filter(pk=project.pk).get()
    if project.task_type != TASK_TYPE:
        raise InvalidInput(gettext("Variant requests are for cultural prompt (KALAHI) projects."))
    try:
        base_pk = int(base_item_id)
    except (TypeError, ValueError):
        raise InvalidInput(
            gettext("Name the base prompt by its item id."), field_errors={"base_item": [gettext("Give an item id.")]}
        ) from None
    base = Item.objects.select_related("current_version", "concept").filter(project=project, pk=base_pk).first()
    if base is None:
        raise InvalidInput(
            gettext("This project has no prompt %(base_pk)s.") % {"base_pk": base_pk},
            field_errors={"base_item": [gettext("No such prompt in this project.")]},
        )
    if base.status != Item.Status.APPROVED:
        raise InvalidInput(
            gettext("Prompt %(base_pk)s is %(get_status_display)s: only an approved base prompt gets variants.")
            % {"base_pk": base_pk, "get_status_display": base.get_status_display().lower()},
            field_errors={"base_item": [gettext("Not approved.")]},
        )
    if not _is_base(base):
        raise InvalidInput(
            gettext("Prompt %(base_pk)s is a variant of %(base_id)s: ask for a variant of the base prompt itself.")
            % {"base_pk": base_pk, "base_id": base_id(base)},
            field_errors={"base_item": [gettext("Not a base prompt.")]},
        )
    if base.concept_id is None:
        raise InvalidInput(
            gettext("Prompt %(base_pk)s has no unit (category and topic), so it can't be given to a writer.")
            % {"base_pk": base_pk},
            field_errors={"base_item": [gettext("No unit.")]},
        )
    free = free_writers(project=project, concept_id=base.concept_id)
    if writer_id in (None, ""):
        if not free:
            raise InvalidInput(
                gettext("No writer is free for the unit “%(name)s”: every active writer already writes for it.")
                % {"name": base.concept.name},
                field_errors={"writer": [gettext("No free writer.")]},
            )
        writer = free[0]
    else:
        writer = (
            Membership.objects.select_related("user")
            .filter(project=project, role=Membership.Role.ANNOTATOR, is_active=True, user_id=_int(writer_id))
            .first()
        )
        if writer is None:
            raise InvalidInput(
                gettext("User %(writer_id)s is not an active writer of this project.") % {"writer_id": writer_id},
                field_errors={"writer": [gettext("Not an active writer.")]},
            )
        if writer.pk not in {m.pk for m in free}:
            raise InvalidInput(
                gettext(
                    "%(writer_name)s already writes for the unit “%(name)s” (one authoring assignment per "
                    "writer and unit): choose another writer."
                )
                % {"writer_name": _writer_name(writer), "name": base.concept.name},
                field_errors={"writer": [gettext("Already writes for this unit.")]},
            )
    return Assignment.objects.create(
        project=project,
        user_id=writer.user_id,
        kind=Assignment.Kind.AUTHOR,
        concept_id=base.concept_id,
        target_item=base,
        position=0,
    )


def _int(value: Any) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def asked_by_review(item: Item, error_codes: list[str]) -> bool:
    """Whether a reviewer asked for a variant of this item, in this decision or an earlier one (the item's
    reviews, through their reverse relation, as variant_overview reads them)."""
    return ADD_VARIANT in error_codes or item.reviews.filter(error_types__code=ADD_VARIANT).exists()


def on_review(*, item: Item, approved: bool, error_codes: list[str]) -> None:
    """A prompt approved after a reviewer asked for a variant (the "add a situation variant" error type)
    gets its base prompt (itself, or the approved base of the variant) a variant request, once, for the
    free writer with the least open work; when nobody is free, or the base is not approved, it waits on
    the variants page (`reviewer_asked`) for an admin."""
    if not approved or not asked_by_review(item, error_codes):
        return
    base = base_item_of(item)
    if base is None or Assignment.objects.filter(target_item=base, kind=Assignment.Kind.AUTHOR).exists():
        return
    try:
        with transaction.atomic():
            variant_request(project=item.project, base_item_id=base.pk)
    except InvalidInput:
        return


def variant_overview(*, project: Project) -> list[dict[str, Any]]:
    """The approved base prompts with their variants (by base id) and their variant requests: what the
    variants page lists."""
    items = list(
        Item.objects.filter(project=project)
        .exclude(status__in=(Item.Status.DRAFT, Item.Status.REJECTED))
        .select_related("current_version", "concept__category")
        .order_by("pk")
    )
    variants: dict[str, list[Item]] = {}
    for item in items:
        if not _is_base(item):
            variants.setdefault(base_id(item), []).append(item)
    requests: dict[int, list[Assignment]] = {}
    for assignment in (
        Assignment.objects.filter(project=project, kind=Assignment.Kind.AUTHOR, target_item__isnull=False)
        .select_related("user")
        .order_by("pk")
    ):
        requests.setdefault(assignment.target_item_id, []).append(assignment)
    codes = dict(Membership.objects.filter(project=project).values_list("user_id", "code"))
    asked = set(
        Item.objects.filter(project=project, reviews__error_types__code=ADD_VARIANT).values_list("pk", flat=True)
    )
    # A reviewer's request on a variant counts for its base.
    asked_bases = {base_id(item) for item in items if item.pk in asked}
    rows = []
    for item in items:
        if item.status != Item.Status.APPROVED or not _is_base(item):
            continue
        mine = variants.get(base_id(item), [])
        rows.append(
            {
                "item": item,
                "prompt_id": base_id(item),
                "unit": f"{item.concept.category.name} · {item.concept.name}" if item.concept_id else "",
                "variants": len(mine),
                "approved_variants": sum(v.status == Item.Status.APPROVED for v in mine),
                "requests": [
                    {
                        "assignment": a.pk,
                        "writer": codes.get(a.user_id) or a.user.get_username(),
                        "status": a.status,
                    }
                    for a in requests.get(item.pk, [])
                ],
                "reviewer_asked": base_id(item) in asked_bases,
            }
        )
    return rows
