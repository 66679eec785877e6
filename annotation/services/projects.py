from __future__ import annotations

import re
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.text import slugify
from django.utils.translation import gettext

from annotation import hooks, limits
from annotation.aggregation.ranking import model_ranking_clear
from annotation.aggregation.store import aggregation_fit_clear
from annotation.aggregation.tasks import aggregation_request
from annotation.errors import IllegalTransition, InvalidInput
from annotation.guidelines import guidelines_check
from annotation.models import AggregationModel, AnnotatorProfile, Membership, Project, ProjectLanguage
from annotation.scope import SCOPES, canonical_country, project_scope
from annotation.task_types import get_task_type, project_settings

User = get_user_model()

PROFILE_FIELDS = ("native_languages", "region", "country", "ethnicity", "years_in_region", "education")
PROFILE_MAX_LENGTHS = {"native_languages": 200, "region": 200, "country": 100, "ethnicity": 200, "education": 200}
USERNAME_MAX_LENGTH = 150
CODE_MAX_LENGTH = 40
# BCP 47 as projects use it: a 2-3 letter language, then optional script / region / variant subtags
# (id, su, ar, jv-Latn, zh-Hant-TW). Anything else in a code ends up in HTML `lang` attributes and file names.
LANGUAGE_CODE = re.compile(r"[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8})*")
_username_validator = UnicodeUsernameValidator()


def username_check(username: str) -> str:
    """The user name as stored, or InvalidInput: 1-150 letters, digits and @ . + - _ (Django's rule)."""
    if not isinstance(username, str) or not username or len(username) > USERNAME_MAX_LENGTH:
        raise InvalidInput(
            gettext("A user name has 1 to %(USERNAME_MAX_LENGTH)s characters.")
            % {"USERNAME_MAX_LENGTH": USERNAME_MAX_LENGTH},
            field_errors={
                "username": [
                    gettext("Use 1 to %(USERNAME_MAX_LENGTH)s characters.")
                    % {"USERNAME_MAX_LENGTH": USERNAME_MAX_LENGTH}
                ]
            },
        )
    try:
        _username_validator(username)
    except ValidationError:
        raise InvalidInput(
            gettext("A user name may contain only letters, digits and @ . + - _."),
            field_errors={"username": [gettext("Only letters, digits and @ . + - _.")]},
        ) from None
    return username


def member_code_check(code: str) -> str:
    code = (code or "").strip()
    if len(code) > CODE_MAX_LENGTH or any(not ch.isprintable() for ch in code):
        raise InvalidInput(
            gettext("A member code is at most %(CODE_MAX_LENGTH)s printable characters.")
            % {"CODE_MAX_LENGTH": CODE_MAX_LENGTH},
            field_errors={
                "code": [
                    gettext("At most %(CODE_MAX_LENGTH)s printable characters.") % {"CODE_MAX_LENGTH": CODE_MAX_LENGTH}
                ]
            },
        )
    return code


@transaction.atomic
def project_create(
    *,
    creator: AbstractBaseUser,
    name: str,
    task_type: str,
    languages: list[dict[str, str]],
    slug: str = "",
    guidelines: str = "",
    authors_per_concept: int | None = None,
    plan_seed: int = 0,
    max_annotators: int = 200,
    aggregation_model: str = AggregationModel.DAWID_SKENE,
    **settings: Any,
) -> Project:
    """Create a project, its languages and its QC taxonomy; the creator becomes its admin.

    Other keyword arguments are the task type's own settings (e.g. `answerers_per_item`), validated
    by it; those not given take its defaults.
    """
    try:
        tt = get_task_type(task_type)
    except LookupError as exc:
        raise InvalidInput(str(exc), field_errors={"task_type": [str(exc)]}) from None
    _check_project_text(name=name, guidelines=guidelines)
    slug = slug or slugify(name)[:80]
    if not slug:
        raise InvalidInput(
            gettext("A project needs a name."), field_errors={"name": [gettext("Give the project a name.")]}
        )
    if Project.objects.filter(slug=slug).exists():
        raise InvalidInput(
            gettext("A project with the address “%(slug)s” already exists.") % {"slug": slug},
            field_errors={"slug": [gettext("Already taken.")]},
        )
    if not languages:
        raise InvalidInput(
            gettext("A project needs at least one language."), field_errors={"languages": [gettext("Add one.")]}
        )
    task_settings = tt.settings_clean(settings)
    if aggregation_model not in AggregationModel.values:
        raise InvalidInput(
            gettext("Choose one of: %(join)s.") % {"join": ", ".join(AggregationModel.values)},
            field_errors={"aggregation_model": [gettext("Unknown model.")]},
        )
    project = Project.objects.create(
        aggregation_model=aggregation_model,
        name=name,
        slug=slug,
        task_type=tt.name,
        guidelines=guidelines,
        # not given: the task type's own default (e.g. one writer per premise)
        authors_per_concept=authors_per_concept or tt.authors_per_unit_default,
        settings=task_settings,
        plan_seed=plan_seed,
        max_annotators=max_annotators,
        created_by=creator,
    )
    project_set_languages(project=project, languages=languages)
    Membership.objects.create(project=project, user=creator, role=Membership.Role.ADMIN)
    hooks.project_created(project=project)  # qc seeds the task type's error types
    return project


def _check_project_text(*, name: str | None, guidelines: str | None) -> None:
    if name is not None:
        limits.check_text(name, field="name", max_length=200)
    if guidelines is not None:
        limits.check_text(guidelines, field="guidelines", max_length=limits.GUIDELINES)


def project_set_languages(*, project: Project, languages: list[dict[str, str]]) -> None:
    seen = set()
    rows = []
    for position, lang in enumerate(languages):
        code = (lang.get("code") or "").strip()
        if not code or code in seen:
            raise InvalidInput(
                gettext("Language #%(position___1)s has an empty or repeated code.") % {"position___1": position + 1}
            )
        if len(code) > 20 or not LANGUAGE_CODE.fullmatch(code):
            raise InvalidInput(
                gettext(
                    "Language #%(position___1)s: “%(code)s” is not a language code (BCP 47, e.g. id, su, ar, jv-Latn)."
                )
                % {"position___1": position + 1, "code": code[:40]},
                field_errors={"languages": [gettext("Use a BCP 47 code such as id, su, ar or jv-Latn.")]},
            )
        name = (lang.get("name") or code).strip()
        if len(name) > 100:
            raise InvalidInput(gettext("Language %(code)s: the name is longer than 100 characters.") % {"code": code})
        seen.add(code)
        direction = lang.get("direction") or ProjectLanguage.Direction.LTR
        if direction not in ProjectLanguage.Direction.values:
            raise InvalidInput(gettext("Language %(code)s: direction must be ltr or rtl.") % {"code": code})
        rows.append(
            ProjectLanguage(project=project, code=code, name=name or code, direction=direction, position=position)
        )
    ProjectLanguage.objects.filter(project=project).delete()
    ProjectLanguage.objects.bulk_create(rows)


@transaction.atomic
def project_update(*, project: Project, languages: list[dict[str, str]] | None = None, **fields: Any) -> Project:
    """Change core fields and, by name, the task type's own settings (only those given change)."""
    allowed = {"name", "guidelines", "authors_per_concept", "plan_seed", "max_annotators"}
    allowed |= {"check_every", "pause_below_percent", "pause_after_checks"}  # annotation.services.known_answers
    allowed |= {"judging_guidelines", "guidelines_translations"}  # annotation.guidelines
    allowed |= {"aggregation_model"}
    tt = get_task_type(project.task_type)
    setting_names = set(tt.settings_defaults())
    unknown = set(fields) - allowed - setting_names
    if unknown:
        raise InvalidInput(gettext("These fields can't be changed: %(join)s.") % {"join": ", ".join(sorted(unknown))})
    _check_project_text(name=fields.get("name"), guidelines=fields.get("guidelines"))
    model_changed = "aggregation_model" in fields and fields["aggregation_model"] != project.aggregation_model
    if model_changed and fields["aggregation_model"] not in AggregationModel.values:
        raise InvalidInput(
            gettext("Choose one of: %(join)s.") % {"join": ", ".join(AggregationModel.values)},
            field_errors={"aggregation_model": [gettext("Unknown model.")]},
        )
    given_settings = {key: fields.pop(key) for key in setting_names & set(fields)}
    if given_settings:
        project.settings = tt.settings_clean({**project_settings(project), **given_settings})
    for key, value in fields.items():
        setattr(project, key, value)
    project.save()
    if languages is not None:
        project_set_languages(project=project, languages=languages)
    if "judging_guidelines" in fields or "guidelines_translations" in fields:
        guidelines_check(
            judging=fields.get("judging_guidelines"),
            translations=fields.get("guidelines_translations"),
            language_codes=set(project.languages.values_list("code", flat=True)),
        )
    if model_changed:
        # Refit with the new model (or forget the old fit when turned off), in the background.
        if project.aggregation_model == AggregationModel.OFF:
            aggregation_fit_clear(project=project)
            model_ranking_clear(project=project)
        else:
            aggregation_request(project=project)
    return project


@transaction.atomic
def membership_add(
    *, project: Project, user: AbstractBaseUser, role: str, code: str = "", is_imported: bool = False
) -> Membership:
    """Add a member, or re-activate and re-role one who left. The one way anyone joins a project
    (pages, API, invitations, imports): the last-admin rule and the bound on annotators hold for all."""
    if role not in Membership.Role.values:
        raise InvalidInput(
            f"Unknown role {role!r}.", field_errors={"role": [gettext("Choose admin, reviewer or annotator.")]}
        )
    code = member_code_check(code)
    membership = Membership.objects.select_for_update().filter(project=project, user=user).first()
    joining_annotators = role == Membership.Role.ANNOTATOR and (
        membership is None or not membership.is_active or membership.role != Membership.Role.ANNOTATOR
    )
    if joining_annotators:
        _refuse_past_max_annotators(project, adding=1)
    if membership is None:
        membership = Membership.objects.create(
            project=project, user=user, role=role, code=code, is_imported=is_imported
        )
    else:
        if membership.role == Membership.Role.ADMIN and role != Membership.Role.ADMIN:
            _refuse_removing_last_admin(membership)
        membership.role = role
        membership.is_active = True
        if code:
            membership.code = code
        membership.save(update_fields=["role", "is_active", "code"])
    AnnotatorProfile.objects.get_or_create(membership=membership)
    return membership


def _refuse_past_max_annotators(project: Project, *, adding: int) -> None:
    active = Membership.objects.filter(project=project, role=Membership.Role.ANNOTATOR, is_active=True).count()
    if active + adding > project.max_annotators:
        raise InvalidInput(
            gettext(
                "This project allows at most %(max_annotators)s annotators and has %(active)s; raise the "
                "limit in the project settings first."
            )
            % {"max_annotators": project.max_annotators, "active": active},
            field_errors={
                "role": [gettext("At most %(max_annotators)s annotators.") % {"max_annotators": project.max_annotators}]
            },
        )


def _refuse_removing_last_admin(membership: Membership) -> None:
    # Lock the project's admin rows so two admins demoting each other at once can't both succeed.
    admins = list(
        Membership.objects.select_for_update()
        .filter(project_id=membership.project_id, role=Membership.Role.ADMIN, is_active=True)
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    if admins == [membership.pk]:
        raise IllegalTransition(gettext("A project needs at least one active admin; make someone else admin first."))


@transaction.atomic
def membership_deactivate(*, membership: Membership) -> Membership:
    """The member leaves: their history stays; their unstarted work goes back to planning."""
    if membership.role == Membership.Role.ADMIN:
        _refuse_removing_last_admin(membership)
    membership.is_active = False
    membership.save(update_fields=["is_active"])
    return membership


@transaction.atomic
def user_create(*, username: str, password: str | None, email: str = "") -> AbstractBaseUser:
    username = username_check(username)
    if User.objects.filter(username=username).exists():
        raise InvalidInput(
            gettext("The user name “%(username)s” is taken.") % {"username": username},
            field_errors={"username": [gettext("Already taken.")]},
        )
    return User.objects.create_user(username=username, email=email, password=password)


@transaction.atomic
def profile_update(*, membership: Membership, actor: Membership | None = None, **fields: Any) -> AnnotatorProfile:
    """Set what a member told this project about themselves; other projects' profiles never change.

    `actor`: the member making the change (None: the system, e.g. an import). In a scoped project
    (annotation.scope) the profile's scope value decides who reviews and judges the member's items, so
    once set only a project admin changes it; a country is one of the task type's when it names them."""
    unknown = set(fields) - set(PROFILE_FIELDS) - {"screening_answers"}
    if unknown:
        raise InvalidInput(gettext("Unknown profile fields: %(join)s.") % {"join": ", ".join(sorted(unknown))})
    for key, limit in PROFILE_MAX_LENGTHS.items():
        if fields.get(key) is not None:
            limits.check_text(fields[key], field=key, max_length=limit)
    profile, _ = AnnotatorProfile.objects.select_for_update().get_or_create(membership=membership)
    scope = project_scope(membership.project)
    if scope and actor is not None and actor.role != Membership.Role.ADMIN:
        field = SCOPES[scope][0]
        current = (getattr(profile, field) or "").strip()
        if field in fields and current and str(fields[field] or "").strip().casefold() != current.casefold():
            message = gettext(
                "Your %(field)s decides who reviews your items: it was set at screening, and only a project "
                "admin can change it (it is %(current)s)."
            ) % {"field": field, "current": current}
            raise InvalidInput(message, field_errors={field: [message]})
    if fields.get("country") is not None:
        fields["country"] = canonical_country(project=membership.project, value=fields["country"])
    for key, value in fields.items():
        setattr(profile, key, value)
    profile.save()
    return profile
