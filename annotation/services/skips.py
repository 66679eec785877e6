"""Skipping: an annotator gives an authoring or judging assignment back, with a reason.

The assignment is cancelled and its Skip row keeps the reason for the admin. The unit goes back to the
planner at once: one other eligible annotator (fewest open assignments of the kind, ties in annotator
order) gets a new assignment for it. The skipper never gets the unit again: they keep their cancelled
row on it, which the one-unit planning here skips, and the bulk planners exclude every Skip
(annotation.selectors.skips.skipped_units).
"""

from __future__ import annotations

import logging

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from annotation import limits
from annotation.annotators import annotator_ranks, project_annotators
from annotation.errors import IllegalTransition, InvalidInput, NotAllowed
from annotation.models import Assignment, Item, Judgment, Membership, Skip
from annotation.scope import judges_out_of_scope
from annotation.services.drafts import work_draft_clear
from annotation.services.judging import active_annotators, next_judge_position, open_judge_loads, pick_judges
from annotation.services.screening import work_gate
from annotation.task_types import get_task_type, project_settings

logger = logging.getLogger(__name__)

OPEN = (Assignment.Status.PENDING, Assignment.Status.ACTIVE)
NOTE_MAX = 2000


def skippable_kinds(project) -> tuple[str, ...]:
    """Authoring, and the project's judging kind (answer, validate, rate, ...) when it has one."""
    rule = get_task_type(project.task_type).judging_rule(project_settings(project))
    return (Assignment.Kind.AUTHOR,) if rule is None else (Assignment.Kind.AUTHOR, rule.kind)


@transaction.atomic
def assignment_skip(*, assignment_id: int, user: AbstractBaseUser, reason: str, note: str = "") -> Skip:
    """Give the user's open authoring or judging assignment back, with a reason, and plan its unit for
    someone else. Refused, with nothing changed: someone else's assignment, work already done or
    cancelled, an authoring unit with a submitted item, an unknown reason."""
    assignment = (
        Assignment.objects.select_for_update(of=("self",)).select_related("project").filter(pk=assignment_id).first()
    )
    if assignment is None or assignment.user_id != user.pk:
        raise NotAllowed(_("This assignment is not yours."))
    work_gate(project=assignment.project, user_id=user.pk)
    if reason not in Skip.Reason.values:
        raise InvalidInput(_("Choose why you skip it."), field_errors={"reason": [_("Choose one of the reasons.")]})
    note = limits.check_text(note.strip(), field="note", max_length=NOTE_MAX)
    if assignment.kind not in skippable_kinds(assignment.project):
        raise IllegalTransition(_("This kind of work can't be skipped."))
    if assignment.status not in OPEN:
        raise IllegalTransition(
            _("This assignment is already done; change your work instead.")
            if assignment.status == Assignment.Status.DONE
            else _("This assignment was cancelled; open your queue for the next one.")
        )
    if Item.objects.filter(assignment=assignment).exclude(status=Item.Status.DRAFT).exists():
        raise IllegalTransition(_("An item of this unit is already submitted; it can't be skipped."))
    assignment.status = Assignment.Status.CANCELLED
    assignment.lease_expires_at = None
    assignment.save(update_fields=["status", "lease_expires_at"])
    skip = Skip.objects.create(project_id=assignment.project_id, assignment=assignment, reason=reason, note=note)
    work_draft_clear(assignment_id=assignment.pk)
    replacement = _plan_replacement(assignment, user_id=user.pk)
    logger.info(
        "assignment.skipped",
        extra={
            "assignment": assignment.pk,
            "reason": reason,
            "replacement": replacement.pk if replacement else None,
        },
    )
    return skip


def _plan_replacement(skipped: Assignment, *, user_id: int) -> Assignment | None:
    """One new assignment of the skipped unit for another eligible annotator, or None when nobody is
    (logged; the admin sees the skip and can re-plan)."""
    project = skipped.project
    kind = skipped.kind
    if kind == Assignment.Kind.AUTHOR:
        if skipped.target_item_id is not None:
            return None  # a request addressed to this writer (a variant of their base item), not a plan slot
        # Anyone holding a row of this unit (any status: the pair is unique) is not eligible.
        blocked = set(
            Assignment.objects.filter(project=project, kind=kind, concept_id=skipped.concept_id).values_list(
                "user_id", flat=True
            )
        )
        author_id = None
    else:
        # Item locked: judgment_record and the round planner lock it too, so one plan at a time per item.
        item = Item.objects.select_for_update().only("pk", "author_id").get(pk=skipped.target_item_id)
        author_id = item.author_id
        blocked = set(Assignment.objects.filter(target_item=item, kind=kind).values_list("user_id", flat=True))
        blocked |= set(Judgment.objects.filter(item=item, kind=kind).values_list("user_id", flat=True))
        if author_id is not None:
            blocked.add(author_id)
    candidates = [u for u in active_annotators(project) if u not in blocked]
    if kind != Assignment.Kind.AUTHOR and candidates:
        rule = get_task_type(project.task_type).judging_rule(project_settings(project))
        if rule is not None and rule.groups:
            # Rater groups: the replacement comes from the skipper's group, so each group keeps its share.
            groups = dict(
                Membership.objects.filter(project=project, user_id__in=[*candidates, user_id]).values_list(
                    "user_id", "group"
                )
            )
            candidates = [u for u in candidates if groups.get(u) == groups.get(user_id)]
        outside = judges_out_of_scope(project=project, authors={skipped.target_item_id: author_id}, judges=candidates)
        candidates = [u for u in candidates if u not in outside.get(skipped.target_item_id, ())]
    ranks = annotator_ranks(project_annotators(project_ids=[project.pk]).get(project.pk, []))
    chosen = pick_judges(
        candidates=candidates, loads=open_judge_loads(project.pk, kind, candidates), ranks=ranks, need=1
    )
    if not chosen:
        logger.warning("assignment.skip_unplanned", extra={"assignment": skipped.pk, "kind": kind})
        return None
    return Assignment.objects.create(
        project_id=project.pk,
        user_id=chosen[0],
        kind=kind,
        round=skipped.round,
        concept_id=skipped.concept_id,
        target_item_id=skipped.target_item_id,
        target_author_id=author_id,
        position=next_judge_position(project.pk, kind),
        created_at=timezone.now(),
    )
