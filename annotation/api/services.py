"""Glue the API needs over the core services: nothing here decides anything the core doesn't."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime

from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from knox.models import AuthToken

User = get_user_model()
logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class IssuedToken:
    """A new API token: `key` exists only here (the database keeps its digest), `expiry` is when it stops working."""

    key: str
    expiry: datetime | None


@transaction.atomic
def auth_token_obtain(*, user: AbstractBaseUser) -> IssuedToken:
    """A new API token for the user, valid for REST_KNOX["TOKEN_TTL"]; earlier tokens stay valid until they expire."""
    instance, key = AuthToken.objects.create(user=user)
    logger.info("auth.token_issued", extra={"user": user.pk, "expiry": instance.expiry})
    return IssuedToken(key=key, expiry=instance.expiry)


@transaction.atomic
def auth_token_revoke(*, token: AuthToken) -> None:
    """Log out one API client: the token it authenticated with stops working."""
    token.delete()
    logger.info("auth.token_revoked", extra={"user": token.user_id})


@transaction.atomic
def auth_tokens_delete_expired() -> int:
    """Delete every expired API token (the periodic clean-up requests leave to it); returns how many."""
    deleted, _ = AuthToken.objects.filter(expiry__lt=timezone.now()).delete()
    if deleted:
        logger.info("auth.tokens_expired_deleted", extra={"count": deleted})
    return deleted


@transaction.atomic
def auth_tokens_revoke_all(*, user_id: int) -> int:
    """Every API token of the user stops working (their password changed); returns how many there were."""
    revoked, _ = AuthToken.objects.filter(user_id=user_id).delete()
    if revoked:
        logger.info("auth.tokens_revoked", extra={"user": user_id, "count": revoked})
    return revoked
