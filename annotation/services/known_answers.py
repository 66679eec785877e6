"""Known-answer checks: items whose answer an admin knows, mixed into judging to measure each judge.

A check is an item in the CHECK status with its `known_answer`: outside every status set that gold,
agreement, reports and exports read, so nothing counts it; the judging plan mixes checks into each
judge's queue at the project's rate (annotation.checks.mix_checks); each judge's answers to checks give
their accuracy, and a judge below the project's floor is paused: no new work until an admin resumes
them. A pause only stops new claims; nothing is deleted or undone.
"""

from __future__ import annotations

import logging

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from annotation.checks import CheckScore, pause_due
from annotation.errors import IllegalTransition, InvalidInput, Paused
from annotation.models import Item, Membership, Project
from annotation.models.items import JUDGEABLE
from annotation.selectors.known_answers import check_scores
from annotation.task_types import get_task_type

logger = logging.getLogger(__name__)

CHECK = Item.Status.CHECK


def known_answer_clean(*, task_type_name: str, payload: dict, answer: str) -> str:
    """The answer, checked against the task type's answers for this item; "" (no check) passes."""
    answer = (answer or "").strip()
    if not answer:
        return ""
    choices = get_task_type(task_type_name).known_answer_choices(payload or {})
    if not choices:
        raise InvalidInput(
            gettext("Items of this task type can't be known-answer checks."),
            field_errors={"known_answer": [gettext("This task type has no single right answer.")]},
        )
    if answer not in choices:
        raise InvalidInput(
            gettext("“%(answer)s” is not an answer of this item.") % {"answer": answer},
            field_errors={"known_answer": [gettext("Choose one of: %(choices)s.") % {"choices": ", ".join(choices)}]},
        )
    return answer


@transaction.atomic
def item_set_known_answer(*, item_id: int, project: Project, answer: str) -> Item:
    """Make an approved item a known-answer check with this answer, change its answer, or ("") make it
    an ordinary approved item again (its judgments then count, and gold decides it afresh)."""
    item = (
        Item.objects.select_for_update(of=("self",))
        .select_related("current_version")
        .filter(pk=item_id, project=project)
        .first()
    )
    if item is None:
        raise InvalidInput(gettext("No such item in this project."))
    if item.status not in (*JUDGEABLE, CHECK):
        raise IllegalTransition(
            gettext("Only approved items can be known-answer checks; this one is %(status)s.")
            % {"status": item.get_status_display().lower()}
        )
    payload = item.current_version.payload if item.current_version_id else {}
    answer = known_answer_clean(task_type_name=item.task_type, payload=payload, answer=answer)
    if answer:
        item.status, item.known_answer, item.status_reason = CHECK, answer, ""
    elif item.status == CHECK:
        item.status, item.known_answer = Item.Status.APPROVED, ""
    else:
        return item
    item.save(update_fields=["status", "known_answer", "status_reason", "updated_at"])
    logger.info("item.known_answer_set", extra={"item": item.pk, "check": bool(answer)})
    return item


def checks_pause_if_failing(*, project: Project, user_id: int) -> bool:
    """After a judge answered a check: pause them when their accuracy since their last resumption is
    below the project's floor after enough checks. True when paused now. Inside the caller's transaction."""
    if project.pause_below_percent <= 0:
        return False
    membership = (
        Membership.objects.select_for_update()
        .filter(project=project, user_id=user_id, role=Membership.Role.ANNOTATOR)
        .first()
    )
    if membership is None or membership.paused_at is not None:
        return False
    score = check_scores(project=project, user_id=user_id, since=membership.unpaused_at).get(
        user_id, CheckScore(checks=0, correct=0)
    )
    if not pause_due(score, below_percent=project.pause_below_percent, after_checks=project.pause_after_checks):
        return False
    membership.paused_at = timezone.now()
    membership.pause_figures = {
        "checks": score.checks,
        "correct": score.correct,
        "below": project.pause_below_percent,
        # The figures count from the last resume, and the message says so.
        "since_resume": membership.unpaused_at is not None,
    }
    membership.save(update_fields=["paused_at", "pause_figures"])
    logger.info("member.paused", extra={"membership": membership.pk, "project": project.pk, **membership.pause_figures})
    return True


@transaction.atomic
def member_resume(*, membership: Membership, actor: AbstractBaseUser) -> Membership:
    """An admin lifts a pause: the member gets work again, and their checks count afresh from now (the
    dashboard keeps showing all of them). Who lifted it and when stay on the membership."""
    locked = Membership.objects.select_for_update().get(pk=membership.pk)
    if locked.paused_at is None:
        raise IllegalTransition(gettext("This member's work is not paused."))
    locked.paused_at = None
    locked.unpaused_at = timezone.now()
    locked.unpaused_by_id = actor.pk
    locked.save(update_fields=["paused_at", "unpaused_at", "unpaused_by"])
    logger.info("member.resumed", extra={"membership": locked.pk, "project": locked.project_id, "actor": actor.pk})
    return locked


def pause_message(figures: dict) -> str:
    values = {
        "correct": figures.get("correct", 0),
        "checks": figures.get("checks", 0),
        "below": figures.get("below", 0),
    }
    if figures.get("since_resume"):
        return (
            gettext(
                "Your work here is paused for now: %(correct)s of the %(checks)s quality-check items you answered "
                "since your last resume matched their expected answers, below the project's %(below)s%%. A project "
                "admin has been told and can resume your work. Thank you for your patience."
            )
            % values
        )
    return (
        gettext(
            "Your work here is paused for now: %(correct)s of the %(checks)s quality-check items you answered "
            "matched their expected answers, below the project's %(below)s%%. A project admin has been told and "
            "can resume your work. Thank you for your patience."
        )
        % values
    )


def pause_gate(*, project: Project, user_id: int) -> None:
    """Refuse new work to a paused annotator. No query unless the project pauses (its row is loaded)."""
    if project.pause_below_percent <= 0:
        return
    figures = (
        Membership.objects.filter(project_id=project.pk, user_id=user_id, paused_at__isnull=False)
        .values_list("pause_figures", flat=True)
        .first()
    )
    if figures is not None:
        raise Paused(pause_message(figures))


def membership_pause_gate(membership: Membership) -> None:
    """pause_gate for a membership already loaded: no query."""
    if membership.project.pause_below_percent > 0 and membership.paused_at is not None:
        raise Paused(pause_message(membership.pause_figures))
