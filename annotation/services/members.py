"""Adding people to a project: invitations a person accepts, and the direct path for platform admins.

A project admin may not attach an existing account of the site by name: that would let them pull in
people without their consent and read what those people told other projects. They invite a user
name; the person joins by accepting. The answer to an invitation is the same whether the name exists
or not, so the add form does not reveal who has an account. Platform admins (staff) manage accounts:
they may create one or attach an existing one directly.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext

from annotation.errors import Conflict, IllegalTransition, InvalidInput, NotAllowed
from annotation.models import Invitation, Membership, Project
from annotation.scope import canonical_country
from annotation.services.projects import (
    member_code_check,
    membership_add,
    membership_deactivate,
    user_create,
    username_check,
)

User = get_user_model()
logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class MemberAddResult:
    """Exactly one of the two is set: the membership (joined now) or the invitation (pending)."""

    membership: Membership | None = None
    invitation: Invitation | None = None

    @property
    def message(self) -> str:
        if self.membership is not None:
            return f"{self.membership.user.username} is now {self.membership.get_role_display().lower()}."
        assert self.invitation is not None
        return (
            f"Invitation for “{self.invitation.username}” recorded: if an account has this name, "
            "it joins as soon as its owner accepts."
        )


@transaction.atomic
def member_add(
    *, project: Project, actor: AbstractBaseUser, username: str, role: str, code: str = "", password: str = ""
) -> MemberAddResult:
    """The one entry for the add-member form and the API.

    - With a password: a new account (platform admins only), made a member at once.
    - A current or former member of this project: re-activated with the role (nothing new is learnt).
    - A platform admin naming an existing account: attached directly.
    - Otherwise: an invitation, answered the same whether or not the name exists.
    """
    username = username_check((username or "").strip())
    code = member_code_check(code)
    if role not in Membership.Role.values:
        raise InvalidInput(
            f"Unknown role {role!r}.", field_errors={"role": [gettext("Choose admin, reviewer or annotator.")]}
        )
    if password:
        if not actor.is_staff:
            raise NotAllowed(
                gettext("Only a platform admin can create accounts; invite an existing user by name instead."),
                field_errors={"password": [gettext("Leave empty: project admins invite people by user name.")]},
            )
        user = user_create(username=username, password=password)
        return MemberAddResult(membership=membership_add(project=project, user=user, role=role, code=code))
    existing = Membership.objects.filter(project=project, user__username=username).select_related("user").first()
    if existing is not None:
        _refuse_self(existing, actor)
        return MemberAddResult(membership=membership_add(project=project, user=existing.user, role=role, code=code))
    if actor.is_staff:
        user = User.objects.filter(username=username).first()
        if user is not None:
            return MemberAddResult(membership=membership_add(project=project, user=user, role=role, code=code))
    return MemberAddResult(
        invitation=invitation_create(project=project, username=username, role=role, code=code, invited_by=actor)
    )


def _refuse_self(membership: Membership, actor: AbstractBaseUser, *, leaving: bool = False) -> None:
    if membership.user_id == actor.pk:
        if leaving:
            raise InvalidInput(gettext("You can't remove yourself from the project; ask another admin."))
        raise InvalidInput(gettext("You can't change your own role; ask another admin."))


@transaction.atomic
def member_update(
    *, membership: Membership, actor: AbstractBaseUser, role: str | None = None, is_active: bool | None = None
) -> Membership:
    """Change a member's role and/or activity (page and API). Nobody changes their own membership here:
    an admin who could demote themselves could lock a project out of administration by a slip.

    An omitted field keeps its value: a new role for someone who left does not bring them back.
    """
    _refuse_self(membership, actor, leaving=is_active is False)
    stay_active = membership.is_active if is_active is None else is_active
    if role is not None or is_active is True:
        membership = membership_add(project=membership.project, user=membership.user, role=role or membership.role)
    if not stay_active and membership.is_active:
        membership = membership_deactivate(membership=membership)
    return membership


GROUP_MAX = 20


@transaction.atomic
def member_set_group(*, membership: Membership, group: str) -> Membership:
    """Put a member in a rater group (Membership.group, e.g. "A" or "B"; "" for none). Letters, digits,
    '-' and '_' only. Judges planned before keep their assignments; the next plan uses the new group."""
    group = _check_group(group)
    locked = Membership.objects.select_for_update().get(pk=membership.pk)
    if locked.group != group:
        locked.group = group
        locked.save(update_fields=["group"])
    return locked


def _check_group(group: str) -> str:
    group = (group or "").strip()
    if len(group) > GROUP_MAX or not all(ch.isalnum() or ch in "-_" for ch in group):
        raise InvalidInput(
            gettext("A group is at most %(GROUP_MAX)s letters, digits, '-' or '_'.") % {"GROUP_MAX": GROUP_MAX},
            field_errors={"group": [gettext("Not valid.")]},
        )
    return group


@transaction.atomic
def members_set_groups(*, project: Project, groups: dict[int, str]) -> int:
    """Put many annotators in rater groups at once ({membership id: group}); returns how many changed.

    All or nothing: one unknown membership or bad group refuses the whole save. Rows are locked in pk
    order so two admins saving at once can't deadlock."""
    cleaned = {pk: _check_group(group) for pk, group in groups.items()}
    locked = list(
        Membership.objects.select_for_update()
        .filter(project=project, role=Membership.Role.ANNOTATOR, pk__in=cleaned)
        .order_by("pk")
    )
    if len(locked) != len(cleaned):
        raise InvalidInput(gettext("Some of these raters are not annotators of this project."))
    changed = [m for m in locked if m.group != cleaned[m.pk]]
    for membership in changed:
        membership.group = cleaned[membership.pk]
    Membership.objects.bulk_update(changed, ["group"])
    return len(changed)


@transaction.atomic
def invitation_create(
    *, project: Project, username: str, role: str, code: str = "", invited_by: AbstractBaseUser | None
) -> Invitation:
    """A pending invitation; inviting the same name again updates the pending one (role, code)."""
    username = username_check(username)
    code = member_code_check(code)
    pending = (
        Invitation.objects.select_for_update()
        .filter(project=project, username=username, status=Invitation.Status.PENDING)
        .first()
    )
    if pending is not None:
        pending.role, pending.code, pending.invited_by = role, code, invited_by
        pending.save(update_fields=["role", "code", "invited_by"])
        return pending
    try:
        with transaction.atomic():
            invitation = Invitation.objects.create(
                project=project, username=username, role=role, code=code, invited_by=invited_by
            )
    except IntegrityError:  # the same name invited at the same moment by another admin
        raise Conflict(
            gettext("“%(username)s” was just invited by someone else; reload the page.") % {"username": username}
        ) from None
    logger.info("member.invited", extra={"project": project.pk, "invitation": invitation.pk, "role": role})
    return invitation


def _lock_pending(invitation_id: int) -> Invitation:
    invitation = Invitation.objects.select_for_update().select_related("project").filter(pk=invitation_id).first()
    if invitation is None:
        raise InvalidInput(gettext("No such invitation."))
    if invitation.status != Invitation.Status.PENDING:
        raise IllegalTransition(
            gettext("This invitation is already %(get_status_display)s.")
            % {"get_status_display": invitation.get_status_display().lower()}
        )
    return invitation


@transaction.atomic
def invitation_accept(*, invitation_id: int, user: AbstractBaseUser) -> Membership:
    """The invited person joins the project with the offered role (through the membership rules)."""
    invitation = _lock_pending(invitation_id)
    if invitation.username != user.get_username():
        raise NotAllowed(gettext("This invitation is for someone else."))
    membership = membership_add(project=invitation.project, user=user, role=invitation.role, code=invitation.code)
    invitation.status, invitation.decided_at = Invitation.Status.ACCEPTED, timezone.now()
    invitation.save(update_fields=["status", "decided_at"])
    logger.info("member.joined", extra={"project": invitation.project_id, "invitation": invitation.pk})
    return membership


@transaction.atomic
def invitation_decline(*, invitation_id: int, user: AbstractBaseUser) -> Invitation:
    invitation = _lock_pending(invitation_id)
    if invitation.username != user.get_username():
        raise NotAllowed(gettext("This invitation is for someone else."))
    invitation.status, invitation.decided_at = Invitation.Status.DECLINED, timezone.now()
    invitation.save(update_fields=["status", "decided_at"])
    return invitation


@transaction.atomic
def invitation_withdraw(*, invitation_id: int, project: Project) -> Invitation:
    invitation = _lock_pending(invitation_id)
    if invitation.project_id != project.pk:
        raise InvalidInput(gettext("No such invitation."))
    invitation.status, invitation.decided_at = Invitation.Status.WITHDRAWN, timezone.now()
    invitation.save(update_fields=["status", "decided_at"])
    return invitation


COUNTRIES_MAX = 30
COUNTRY_MAX_LENGTH = 100


@transaction.atomic
def member_set_countries(*, membership: Membership, countries: list[str]) -> Membership:
    """The countries a reviewer reviews for (Membership.countries; see annotation.scope): names as the
    authors' profiles give them, at most 30, blanks and repeats dropped. Items already decided stay so."""
    if not isinstance(countries, list | tuple) or not all(isinstance(c, str) for c in countries):
        raise InvalidInput(
            gettext("Give a list of country names."), field_errors={"countries": [gettext("A list of names.")]}
        )
    cleaned = list(dict.fromkeys(c.strip() for c in countries if c.strip()))
    if len(cleaned) > COUNTRIES_MAX or any(len(c) > COUNTRY_MAX_LENGTH for c in cleaned):
        message = f"At most {COUNTRIES_MAX} countries of at most {COUNTRY_MAX_LENGTH} characters each."
        raise InvalidInput(message, field_errors={"countries": [message]})
    cleaned = list(dict.fromkeys(canonical_country(project=membership.project, value=c) for c in cleaned))
    locked = Membership.objects.select_for_update().get(pk=membership.pk)
    if locked.countries != cleaned:
        locked.countries = cleaned
        locked.save(update_fields=["countries"])
    return locked
