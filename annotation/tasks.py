"""Celery entry points of annotation (see STYLE.md): load, call a service."""

from __future__ import annotations

from celery import shared_task


@shared_task(name="annotation.delete_expired_tokens", acks_late=True, reject_on_worker_lost=True)
def delete_expired_tokens() -> int:
    from annotation.api.services import auth_tokens_delete_expired

    return auth_tokens_delete_expired()


# The worker finds tasks in each app's `tasks` module; the aggregation fit and the search indexes' catch-up
# live with what they serve.
from annotation.aggregation.tasks import aggregation_fit  # noqa: E402
from annotation.search_index import search_index_catch_up  # noqa: E402

__all__ = ["aggregation_fit", "delete_expired_tokens", "search_index_catch_up"]
