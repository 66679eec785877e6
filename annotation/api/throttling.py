"""The API's write limit: DRF's per-user throttle, for a signed-in user's unsafe methods only (reads
are not limited; signing in is django-axes' business)."""

from __future__ import annotations

from rest_framework.permissions import SAFE_METHODS
from rest_framework.throttling import UserRateThrottle

from annotation.ratelimit import rate_for


class WriteRateThrottle(UserRateThrottle):
    scope = "api_write"

    def get_rate(self) -> str:
        # Read per request from settings (DRF binds its THROTTLE_RATES once, at import).
        return rate_for(self.scope)

    def allow_request(self, request, view) -> bool:
        if request.method in SAFE_METHODS or not request.user.is_authenticated:
            return True
        return super().allow_request(request, view)
