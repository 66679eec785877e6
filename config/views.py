"""Site-wide views that belong to no app."""

from django.http import HttpRequest, HttpResponsePermanentRedirect
from django.templatetags.static import static
from django.views.decorators.http import require_GET


@require_GET
def favicon(request: HttpRequest) -> HttpResponsePermanentRedirect:
    """Browsers ask for /favicon.ico whatever the page links; without it every page logs a 404 in the
    console. Resolved per request: the manifest of hashed static names exists only after collectstatic."""
    return HttpResponsePermanentRedirect(static("favicon.svg"))
