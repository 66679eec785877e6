"""Endpoints: create, edit, test. The base URL is checked here, so pages, the API and the CLI agree."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from annotation.errors import InvalidInput
from evaluation.llm import client as llm
from evaluation.llm.base_url import BaseUrlRefused, validate_base_url
from evaluation.llm.keys import KEY_PREFIX, granted_key_names, is_granted_key_name
from evaluation.models import Endpoint

logger = logging.getLogger(__name__)

FIELDS = (
    "name",
    "base_url",
    "model",
    "api_key_env",
    "is_local",
    "timeout_seconds",
    "max_concurrency",
    "requests_per_minute",
    "price_input_per_million",
    "price_output_per_million",
    "offers_logprobs",
    "offers_embeddings",
)


def key_name_refusal() -> str:
    """Why a name was refused, with the names an endpoint may use (never their values)."""
    names = granted_key_names()
    return _(
        "Only an environment variable granted to endpoints can hold a key: its name starts with %(prefix)s. "
        "Set here: %(names)s."
    ) % {"prefix": KEY_PREFIX, "names": ", ".join(names) if names else _("none")}


def endpoint_clean(data: dict[str, Any]) -> dict[str, Any]:
    """Check what only the service knows (the model's field validators are the form's business)."""
    errors: dict[str, list[str]] = {}
    cleaned = dict(data)
    try:
        cleaned["base_url"] = validate_base_url(str(data.get("base_url", "")), is_local=bool(data.get("is_local")))
    except BaseUrlRefused as exc:
        errors["base_url"] = [str(exc)]
    env = str(data.get("api_key_env") or "")
    if env and not is_granted_key_name(env):
        errors["api_key_env"] = [key_name_refusal()]
    if not str(data.get("model") or "").strip():
        errors["model"] = [_("Required.")]
    if errors:
        first = next(iter(errors.values()))[0]
        raise InvalidInput(first, field_errors=errors)
    return cleaned


@transaction.atomic
def endpoint_create(**data: Any) -> Endpoint:
    cleaned = endpoint_clean(data)
    if Endpoint.objects.filter(name=cleaned["name"]).exists():
        raise InvalidInput(
            _("An endpoint named “%(name)s” exists already.") % {"name": cleaned["name"]},
            field_errors={"name": [_("Taken.")]},
        )
    endpoint = Endpoint.objects.create(**{k: v for k, v in cleaned.items() if k in FIELDS})
    logger.info("endpoint.created", extra={"endpoint": endpoint.name, "local": endpoint.is_local})
    return endpoint


@transaction.atomic
def endpoint_update(*, endpoint: Endpoint, **data: Any) -> Endpoint:
    cleaned = endpoint_clean({**{f: getattr(endpoint, f) for f in FIELDS}, **data})
    if Endpoint.objects.filter(name=cleaned["name"]).exclude(pk=endpoint.pk).exists():
        raise InvalidInput(
            _("An endpoint named “%(name)s” exists already.") % {"name": cleaned["name"]},
            field_errors={"name": [_("Taken.")]},
        )
    for field in FIELDS:
        setattr(endpoint, field, cleaned[field])
    endpoint.save()
    return endpoint


@dataclass(frozen=True)
class EndpointTest:
    ok: bool
    text: str
    latency_ms: int | None
    error: str = ""
    prompt_tokens: int = 0
    completion_tokens: int = 0


TEST_PROMPT = "Reply with one short sentence: are you there?"


def endpoint_test(*, endpoint: Endpoint) -> EndpointTest:
    """One request, outside any run (and outside the limiter: an admin's single click)."""
    try:
        result = llm.chat(
            endpoint=llm.EndpointConfig.of(endpoint),
            messages=[{"role": "user", "content": TEST_PROMPT}],
            max_tokens=32,
        )
    except llm.LLMError as exc:
        logger.info("endpoint.test_failed", extra={"endpoint": endpoint.name, "kind": exc.kind})
        return EndpointTest(ok=False, text="", latency_ms=exc.latency_ms, error=exc.message)
    return EndpointTest(
        ok=True,
        text=result.text,
        latency_ms=result.latency_ms,
        prompt_tokens=result.prompt_tokens,
        completion_tokens=result.completion_tokens,
    )
