"""The signed-in user's language and time zone; pages' uncaught domain errors as their HTTP status.

UserPreferencesMiddleware activates the signed-in user's chosen language and time zone for the request.

Runs after django's LocaleMiddleware (which picked the browser's language from Accept-Language or
the language cookie) and after authentication: a user who chose a language gets it whatever their
browser says; one who left it blank keeps the browser's. The time zone is UTC unless chosen.
"""

from __future__ import annotations

import zoneinfo

from django.conf import settings
from django.http import JsonResponse
from django.template.response import TemplateResponse
from django.utils import timezone, translation

from annotation.errors import DomainError
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


class DomainErrorMiddleware:
    """A refused action that a page did not handle itself answers with the error's status and message.

    Pages catch the domain errors they expect (to show them in the form); any other, e.g. the screening
    gate's NotAllowed raised while a page loads its object, would otherwise be a 500. The API maps the
    same errors in annotation.api.errors; this answers in its shape to a caller that asks for JSON (the
    autosave) and with a page to a browser.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if not isinstance(exception, DomainError):
            return None
        if not request.accepts("text/html"):
            body = {"detail": exception.message, "code": exception.code}
            if exception.field_errors:
                body["errors"] = exception.field_errors
            return JsonResponse(body, status=exception.http_status)
        response = TemplateResponse(
            request, "refused.html", {"message": exception.message}, status=exception.http_status
        )
        return response.render()
