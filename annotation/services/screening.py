"""Screening, training and pilot before an annotator may work (any task type; models in
annotation.models.screening).

Steps of an Application: screening (every criterion met, else failed) -> training (the practice items,
answered with feedback) -> pilot (at least `pilot_pass` of the pilot items right; a miss uses one of
`max_attempts`, the last one fails) -> passed -> admitted by an admin. An annotator of a project that
requires screening can't open work until admitted (`work_gate`, called by the services and selectors
that hand out and save work, so pages and API refuse alike).
"""

from __future__ import annotations

import logging
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop

from annotation import limits
from annotation.errors import IllegalTransition, InvalidInput, NotAllowed
from annotation.models import AnnotatorProfile, Application, Membership, Project, ScreeningSetup
from annotation.scope import canonical_country

logger = logging.getLogger(__name__)

# ArabCulture's five criteria (Sadallah et al. 2025, Section 3): the default screening form.
DEFAULT_CRITERIA: list[dict[str, str]] = [
    {"code": "native_speaker", "question": "I am a native speaker of the language of my country."},
    {"code": "residence_10_years", "question": "I have lived in the country for at least 10 years."},
    {"code": "local_culture", "question": "I know the local culture of my country deeply."},
    {"code": "parents_from_country", "question": "My parents are from the country."},
    {"code": "high_school", "question": "I have at least a high school education."},
]
MAX_ITEMS = 50
Status = Application.Status


def _check_items(items: Any, field: str) -> list[dict[str, Any]]:
    """Practice or pilot items: [{"question", "options": [2..10 texts], "answer": index, "feedback"}]."""
    if not isinstance(items, list) or len(items) > MAX_ITEMS:
        raise InvalidInput(
            gettext("Give at most %(MAX_ITEMS)s items.") % {"MAX_ITEMS": MAX_ITEMS},
            field_errors={field: [gettext("A list of items.")]},
        )
    cleaned = []
    for n, item in enumerate(items, start=1):
        options = item.get("options") if isinstance(item, dict) else None
        answer = item.get("answer") if isinstance(item, dict) else None
        ok = (
            isinstance(options, list)
            and 2 <= len(options) <= 10
            and all(isinstance(o, str) and o.strip() for o in options)
            and isinstance(answer, int)
            and not isinstance(answer, bool)
            and 0 <= answer < len(options)
            and isinstance(item.get("question"), str)
            and item["question"].strip()
        )
        if not ok:
            message = f"Item {n}: give a question, 2 to 10 options and the index of the right one."
            raise InvalidInput(message, field_errors={field: [message]})
        feedback = limits.check_text(str(item.get("feedback") or ""), field=field, max_length=limits.FEEDBACK)
        limits.check_text(item["question"], field=field, max_length=limits.QUESTION)
        for option in options:
            limits.check_text(option, field=field, max_length=limits.OPTION)
        cleaned.append(
            {"question": item["question"].strip(), "options": options, "answer": answer, "feedback": feedback}
        )
    return cleaned


@transaction.atomic
def screening_configure(
    *,
    project: Project,
    required: bool = True,
    criteria: list[dict[str, str]] | None = None,
    training_items: list[dict[str, Any]] | None = None,
    pilot_items: list[dict[str, Any]] | None = None,
    pilot_pass: int | None = None,
    max_attempts: int = 2,
) -> ScreeningSetup:
    """Set the project's screening (created on first use). Criteria default to ArabCulture's five."""
    criteria = DEFAULT_CRITERIA if criteria is None else criteria
    if not isinstance(criteria, list) or not all(
        isinstance(c, dict) and str(c.get("code") or "").strip() and str(c.get("question") or "").strip()
        for c in criteria
    ):
        raise InvalidInput(
            gettext("Each criterion needs a code and a question."), field_errors={"criteria": [gettext("Not valid.")]}
        )
    training = _check_items(training_items or [], "training_items")
    pilot = _check_items(pilot_items or [], "pilot_items")
    pilot_pass = len(pilot) if pilot_pass is None else pilot_pass
    if not 0 <= pilot_pass <= len(pilot):
        message = f"The pass mark must be between 0 and the {len(pilot)} pilot items."
        raise InvalidInput(message, field_errors={"pilot_pass": [message]})
    if not 1 <= max_attempts <= 10:
        raise InvalidInput(
            gettext("Allow 1 to 10 pilot attempts."), field_errors={"max_attempts": [gettext("1 to 10.")]}
        )
    setup, _ = ScreeningSetup.objects.select_for_update().get_or_create(project=project)
    setup.required = required
    setup.criteria = [{"code": str(c["code"]).strip(), "question": str(c["question"]).strip()} for c in criteria]
    setup.training_items, setup.pilot_items = training, pilot
    setup.pilot_pass, setup.max_attempts = pilot_pass, max_attempts
    setup.save()
    Project.objects.filter(pk=project.pk).update(screening_required=required)
    project.screening_required = required
    return setup


def work_gate(*, project: Project, user_id: int) -> None:
    """Refuse work to an annotator not admitted yet in a project that requires screening.

    No query unless the project requires screening (Project.screening_required is on the loaded row)."""
    if not project.screening_required:
        return
    blocked = (
        Membership.objects.filter(project_id=project.pk, user_id=user_id, role=Membership.Role.ANNOTATOR)
        .exclude(application__status=Status.ADMITTED)
        .exists()
    )
    if blocked:
        raise NotAllowed(gettext(GATE_MESSAGE))


def admitted_only(memberships, *, project: Project):
    """Annotator memberships that may get planned work: all of them, or only the admitted ones when the
    project requires screening (nobody is planned work they can't open)."""
    if not project.screening_required:
        return memberships
    return memberships.filter(application__status=Status.ADMITTED)


GATE_MESSAGE = gettext_noop(
    "Finish the screening, training and pilot, and be admitted by an admin, before you work here."
)


def _locked(membership: Membership) -> tuple[ScreeningSetup, Application]:
    setup = ScreeningSetup.objects.filter(project_id=membership.project_id).first()
    if setup is None or not setup.required:
        raise IllegalTransition(gettext("This project has no screening."))
    if membership.role != Membership.Role.ANNOTATOR:
        raise NotAllowed(gettext("Only annotators apply."))
    Application.objects.get_or_create(membership=membership)
    return setup, Application.objects.select_for_update().get(membership=membership)


def _expect(application: Application, status: str) -> None:
    if application.status != status:
        raise IllegalTransition(
            gettext("This step is done or not open yet: your application is at “%(get_status_display)s”.")
            % {"get_status_display": application.get_status_display()}
        )


@transaction.atomic
def screening_submit(*, membership: Membership, answers: dict[str, Any], country: str = "") -> Application:
    """The screening form: every criterion answered yes passes to training; a no fails (kept with the reason)."""
    setup, application = _locked(membership)
    _expect(application, Status.SCREENING)
    codes = [c["code"] for c in setup.criteria]
    if not isinstance(answers, dict) or any(not isinstance(answers.get(code), bool) for code in codes):
        raise InvalidInput(gettext("Answer every criterion yes or no."), field_errors={"answers": [", ".join(codes)]})
    country = limits.check_text((country or "").strip(), field="country", max_length=100)
    country = canonical_country(project=membership.project, value=country)
    unmet = [c["code"] for c in setup.criteria if answers[c["code"]] is not True]
    application.screening_answers = {code: answers[code] for code in codes}
    application.status = Status.FAILED if unmet else (Status.TRAINING if setup.training_items else Status.PILOT)
    application.failed_reason = gettext("Criteria not met: %(codes)s.") % {"codes": ", ".join(unmet)} if unmet else ""
    application.save()
    profile, _ = AnnotatorProfile.objects.get_or_create(membership=membership)
    profile.screening_answers = application.screening_answers
    if country:
        profile.country = country
    profile.save(update_fields=["screening_answers", "country"])
    logger.info("screening.submitted", extra={"membership": membership.pk, "status": application.status})
    return application


def _score(items: list[dict[str, Any]], answers: Any, field: str) -> list[bool]:
    if (
        not isinstance(answers, list)
        or len(answers) != len(items)
        or not all(
            isinstance(a, int) and not isinstance(a, bool) and 0 <= a < len(i["options"])
            for a, i in zip(answers, items, strict=False)
        )
    ):
        raise InvalidInput(
            gettext("Answer each of the %(len)s items with one option.") % {"len": len(items)},
            field_errors={field: [gettext("Not valid.")]},
        )
    return [a == i["answer"] for a, i in zip(answers, items, strict=True)]


@transaction.atomic
def training_submit(*, membership: Membership, answers: list[int]) -> list[dict[str, Any]]:
    """Answer the practice items; returns per item whether it was right, the right option and the feedback."""
    setup, application = _locked(membership)
    _expect(application, Status.TRAINING)
    right = _score(setup.training_items, answers, "answers")
    application.training_answers = list(answers)
    application.status = Status.PILOT
    application.save()
    return [
        {"right": ok, "answer": item["answer"], "feedback": item["feedback"]}
        for ok, item in zip(right, setup.training_items, strict=True)
    ]


@transaction.atomic
def pilot_submit(*, membership: Membership, answers: list[int]) -> Application:
    """Answer the pilot: `pilot_pass` right passes; otherwise one attempt is used and the last one fails."""
    setup, application = _locked(membership)
    _expect(application, Status.PILOT)
    score = sum(_score(setup.pilot_items, answers, "answers"))
    application.pilot_attempts += 1
    application.pilot_scores = [*application.pilot_scores, score]
    if score >= setup.pilot_pass:
        application.status = Status.PASSED
    elif application.pilot_attempts >= setup.max_attempts:
        application.status = Status.FAILED
        application.failed_reason = gettext("Pilot: %(score)s of %(total)s right, %(needed)s needed.") % {
            "score": score,
            "total": len(setup.pilot_items),
            "needed": setup.pilot_pass,
        }
    application.save()
    return application


@transaction.atomic
def application_admit(*, membership: Membership, admin: AbstractBaseUser) -> Application:
    """An admin admits an applicant who passed; anyone else is refused and nothing changes."""
    is_admin = Membership.objects.filter(
        project_id=membership.project_id, user=admin, role=Membership.Role.ADMIN, is_active=True
    ).exists()
    if not is_admin:
        raise NotAllowed(gettext("Only the project's admins admit applicants."))
    _, application = _locked(membership)
    _expect(application, Status.PASSED)
    application.status = Status.ADMITTED
    application.admitted_by = admin
    application.admitted_at = timezone.now()
    application.save()
    return application


def applications_for(*, project: Project) -> list[dict[str, Any]]:
    """Every annotator of the project with their application (an admin's overview), in code order."""
    rows = (
        Membership.objects.filter(project=project, role=Membership.Role.ANNOTATOR)
        .select_related("user", "application", "profile")
        .order_by("code", "user__username")
    )
    out = []
    for m in rows:
        application = getattr(m, "application", None)
        profile = getattr(m, "profile", None)
        out.append(
            {
                "membership_id": m.pk,
                "user": m.user.get_username(),
                "code": m.code,
                "country": profile.country if profile else "",
                "status": application.status if application else Status.SCREENING,
                "status_label": Status(application.status if application else Status.SCREENING).label,
                "pilot_scores": application.pilot_scores if application else [],
                "failed_reason": application.failed_reason if application else "",
            }
        )
    return out
