"""Activate the signed-in user's chosen language and time zone for the request.

Runs after django's LocaleMiddleware (which picked the browser's language from Accept-Language or
the language cookie) and after authentication: a user who chose a language gets it whatever their
browser says; one who left it blank keeps the browser's. The time zone is UTC unless chosen.
"""

from __future__ import annotations

import zoneinfo

from django.conf import settings
from django.utils import timezone, translation

from annotation.services.preferences import session_preferences


class UserPreferencesMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response
        self.languages = dict(settings.LANGUAGES)

    def __call__(self, request):
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            chosen = session_preferences(request=request)
            language = chosen.get("language") or ""
            if language in self.languages:
                translation.activate(language)
                request.LANGUAGE_CODE = language
            try:
                timezone.activate(zoneinfo.ZoneInfo(chosen.get("time_zone") or "UTC"))
            except (zoneinfo.ZoneInfoNotFoundError, ValueError):
                timezone.deactivate()
        response = self.get_response(request)
        # Threads are reused: the next request must not inherit this user's time zone.
        timezone.deactivate()
        return response
