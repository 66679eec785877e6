"""Each user's interface language and time zone (UserPreferences), and their copy in the session.

The session holds the pair so a request reads it without a query (the session is loaded anyway);
it is filled at login and whenever the user saves their preferences.
"""

from __future__ import annotations

import zoneinfo
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext as _

from annotation.errors import InvalidInput
from annotation.models import UserPreferences

SESSION_KEY = "gotong_preferences"


def language_choices() -> list[tuple[str, str]]:
    return list(settings.LANGUAGES)


def time_zone_names() -> list[str]:
    return sorted(zoneinfo.available_timezones())


def preferences_for(*, user) -> UserPreferences:
    """The user's preferences, unsaved defaults (browser language, UTC) when they never chose."""
    return UserPreferences.objects.filter(user=user).first() or UserPreferences(user=user)


@transaction.atomic
def preferences_update(*, user, language: str, time_zone: str) -> UserPreferences:
    if language and language not in dict(settings.LANGUAGES):
        message = _("Unknown language: %(code)s.") % {"code": language}
        raise InvalidInput(message, field_errors={"language": [message]})
    if time_zone and time_zone not in zoneinfo.available_timezones():
        message = _("Unknown time zone: %(name)s.") % {"name": time_zone}
        raise InvalidInput(message, field_errors={"time_zone": [message]})
    preferences, _created = UserPreferences.objects.update_or_create(
        user=user, defaults={"language": language, "time_zone": time_zone}
    )
    return preferences


def session_store(*, session, preferences: UserPreferences) -> None:
    session[SESSION_KEY] = {"language": preferences.language, "time_zone": preferences.time_zone}


def session_preferences(*, request) -> dict[str, Any]:
    """The signed-in user's {language, time_zone}, from the session; one query the first time only
    (a session started before preferences existed)."""
    stored = request.session.get(SESSION_KEY)
    if stored is None:
        preferences = preferences_for(user=request.user)
        session_store(session=request.session, preferences=preferences)
        stored = request.session[SESSION_KEY]
    return stored
