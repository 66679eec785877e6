from django.apps import apps
from rest_framework.test import APIClient

from annotation.api.services import auth_token_obtain


def client_for(user) -> APIClient:
    """An API client authenticated with the user's token (no session, so no CSRF involved)."""
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {auth_token_obtain(user=user).key}")
    return client


def db_state() -> dict[str, list[dict]]:
    """Every row of every table (many-to-many tables included), to prove a refused request changed nothing."""
    return {
        model._meta.db_table: list(model.objects.order_by("pk").values())
        for model in apps.get_models(include_auto_created=True)
    }


def row_counts(state: dict[str, list[dict]]) -> dict[str, int]:
    return {table: len(rows) for table, rows in state.items()}
