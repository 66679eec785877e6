"""API token authentication: knox's hashed, expiring tokens, checked with one query per request."""

from __future__ import annotations

from django.utils import timezone
from drf_spectacular.contrib.knox_auth_token import KnoxTokenScheme
from knox.auth import TokenAuthentication as KnoxTokenAuthentication


class TokenAuthentication(KnoxTokenAuthentication):
    """knox's check without its per-request sweep of all the user's other tokens.

    knox loads every token of the user on each request to delete the expired ones: a query on the
    hottest path that grows with the tokens a user has collected (each login issues one). Here only
    the presented token's expiry is checked; expired tokens are deleted by the periodic task
    `annotation.delete_expired_tokens` instead. (`_cleanup_token` is knox's hook for this; knox is
    pinned below 6 in requirements.txt.)
    """

    def _cleanup_token(self, auth_token) -> bool:
        if auth_token.expiry is not None and auth_token.expiry < timezone.now():
            auth_token.delete()
            return True
        return False


class TokenScheme(KnoxTokenScheme):
    """Documents the subclass as knox's token scheme in the OpenAPI schema (same name, same header)."""

    target_class = "annotation.api.authentication.TokenAuthentication"
