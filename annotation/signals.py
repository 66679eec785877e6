"""Signal receivers. Each only notices the event and hands over to a service."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser

from annotation.api.services import auth_tokens_revoke_all


def revoke_api_tokens_on_password_change(
    sender: type[AbstractBaseUser],
    instance: AbstractBaseUser,
    raw: bool = False,
    update_fields: frozenset[str] | None = None,
    **kwargs: Any,
) -> None:
    """A user whose password changes loses every API token (a stolen token dies with the old password).

    Why pre_save comparing the stored hash: Django sends no "password changed" signal, and passwords
    change in code we don't own (the admin's password form, `manage.py changepassword`,
    `set_unusable_password()`, a plain `user.password = ...`). Every one of them ends in saving the
    user row with a different hash, so this catches them all; only `QuerySet.update()` slips past,
    and nothing here changes passwords that way. A hasher upgrade at login (new Argon2 parameters,
    PBKDF2 -> Argon2) changes the hash too and revokes the tokens once: the safe side, and rare.
    The alternative, a validator's `password_changed()` hook, misses `set_unusable_password()` and
    stops working if someone edits AUTH_PASSWORD_VALIDATORS.
    """
    if raw or instance.pk is None:
        return
    if update_fields is not None and "password" not in update_fields:
        return  # e.g. login saving last_login: no query for it
    stored = sender._default_manager.filter(pk=instance.pk).values_list("password", flat=True).first()
    if stored is not None and stored != instance.password:
        auth_tokens_revoke_all(user_id=instance.pk)


def remember_preferences_on_login(sender: Any, request: Any, user: AbstractBaseUser, **kwargs: Any) -> None:
    """Copy the user's language and time zone into the new session, so requests read them query-free."""
    if request is None or not hasattr(request, "session"):
        return
    from annotation.services.preferences import preferences_for, session_store

    session_store(session=request.session, preferences=preferences_for(user=user))
