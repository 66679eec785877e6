"""Per-user limits on writes: a fixed-window counter in Django's cache (Redis when REDIS_URL is set, so
every web process counts together; memory of one process otherwise).

Rates are written as DRF's are, "N/s", "N/min", "N/hour", "N/day", and live in settings
(GOTONG_RATE_LIMITS), generous enough that a person working fast never meets them: they stop a script
or a stuck page that posts in a loop (autosave took 40 requests in 0.7 s, all saved).
"""

from __future__ import annotations

import time

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import ngettext

_PERIODS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def parse_rate(rate: str) -> tuple[int, int]:
    """(requests, seconds) of "120/min"; the unit is read by its first letter, as DRF does."""
    count, _, unit = rate.partition("/")
    return int(count), _PERIODS[unit.strip()[:1]]


def rate_for(scope: str) -> str:
    return settings.GOTONG_RATE_LIMITS[scope]


def rate_limit_hit(*, scope: str, ident: str) -> int | None:
    """Count one request of `ident` in `scope`: None while within the rate, else the seconds to wait."""
    limit, period = parse_rate(rate_for(scope))
    now = time.time()
    key = f"gotong:rate:{scope}:{ident}:{int(now // period)}"
    cache.add(key, 0, timeout=period + 1)
    try:
        count = cache.incr(key)
    except ValueError:  # the window's key expired between add and incr: this is its first request
        cache.set(key, 1, timeout=period + 1)
        count = 1
    if count <= limit:
        return None
    return max(1, int(period - now % period))


# The authoring autosave has its own, lower rate (it posts by itself as a person types).
AUTOSAVE_URL_NAMES = frozenset({"author_draft_save"})
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "TRACE"})


class WriteRateLimitMiddleware:
    """The pages' writes of a signed-in user, past their rate: 429 before the view runs, so nothing is
    saved. The API is DRF's (annotation/api/throttling.py)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_view(self, request: HttpRequest, view_func, view_args, view_kwargs) -> HttpResponse | None:
        user = getattr(request, "user", None)
        if request.method in SAFE_METHODS or request.path_info.startswith("/api/"):
            return None
        if user is None or not user.is_authenticated:
            return None
        match = request.resolver_match
        autosave = match is not None and match.url_name in AUTOSAVE_URL_NAMES
        wait = rate_limit_hit(scope="autosave" if autosave else "page_write", ident=str(user.pk))
        if wait is None:
            return None
        message = ngettext(
            "Too many changes in a short time: nothing was saved. Try again in %(n)s second.",
            "Too many changes in a short time: nothing was saved. Try again in %(n)s seconds.",
            wait,
        ) % {"n": wait}
        if autosave:  # its script reads {"error": ...}, as from the view itself
            response: HttpResponse = JsonResponse({"error": message}, status=429)
        else:
            response = HttpResponse(message, status=429, content_type="text/plain; charset=utf-8")
        response["Retry-After"] = str(wait)
        return response
