"""Glue the API needs over the core services: nothing here decides anything the core doesn't."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from rest_framework.authtoken.models import Token

from annotation.errors import InvalidInput
from annotation.models import Membership, Project
from annotation.services.projects import membership_add, membership_deactivate, user_create

User = get_user_model()


@transaction.atomic
def auth_token_obtain(*, user: AbstractBaseUser) -> Token:
    """The user's API token; one per user, created on first use."""
    token, _ = Token.objects.get_or_create(user=user)
    return token


@transaction.atomic
def member_add(*, project: Project, username: str, role: str, code: str = "", password: str = "") -> Membership:
    """Add an existing user by name, or create the user first when a password is given."""
    if password:
        user = user_create(username=username, password=password)
    else:
        user = User.objects.filter(username=username).first()
        if user is None:
            raise InvalidInput(
                f"There is no user “{username}”.",
                field_errors={"username": ["No such user; give a password to create the account."]},
            )
    return membership_add(project=project, user=user, role=role, code=code)


@transaction.atomic
def member_update(*, membership: Membership, role: str | None = None, is_active: bool | None = None) -> Membership:
    """Change a member's role and/or activity with the core services the pages use.

    An omitted field keeps its value: a new role for someone who left does not bring them back.
    """
    stay_active = membership.is_active if is_active is None else is_active
    if role is not None or is_active is True:
        membership = membership_add(project=membership.project, user=membership.user, role=role or membership.role)
    if not stay_active and membership.is_active:
        membership = membership_deactivate(membership=membership)
    return membership
