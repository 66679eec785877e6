"""The one module through which every LLM call of Gotong goes (the `openai` client).

- Explicit timeout, `max_retries=0`: retries are the run engine's (evaluation/engine.py), per call,
  with backoff and the server's Retry-After, so a retry is recorded and counted.
- Redirects are not followed (a public URL must not bounce a request to loopback); a 3xx is a terminal
  error. The timeout is a total deadline: the transport cuts a body that trickles in slower than it
  (httpx's own timeouts are per read, so a slow stream could otherwise last forever).
- Errors are classified: `retryable` for timeouts, connection errors, 408/409/429 (Retry-After kept)
  and 5xx; terminal for 3xx, other 4xx, a reply that is not JSON and a missing API key.
- The API key comes only from a variable granted to endpoints (evaluation/llm/keys.py), checked before
  every call, whatever the endpoint row says.
- One `openai.OpenAI` per endpoint configuration and thread (see "clients" below), so connections are
  kept alive and no request waits on another thread's pool lock; its base URL is checked again every
  REVALIDATE seconds.
- Likelihood scoring (`score_continuation`, `supports_likelihood`): the log-probabilities a model gives
  a continuation after a context, from the completions API with `echo` and `logprobs`.
"""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from email.utils import parsedate_to_datetime
from typing import Any

import httpx2
import openai

from evaluation.llm.base_url import BaseUrlRefused, validate_base_url
from evaluation.llm.keys import KEY_PREFIX, is_granted_key_name

REVALIDATE_SECONDS = 300
RETRYABLE_STATUS = {408, 409, 429}


@dataclass(frozen=True)
class EndpointConfig:
    """What the client needs of an Endpoint (also built from one: `EndpointConfig.of(endpoint)`)."""

    base_url: str
    model: str
    api_key_env: str = ""
    is_local: bool = False
    timeout_seconds: float = 60.0
    max_concurrency: int = 4

    @classmethod
    def of(cls, endpoint: Any) -> EndpointConfig:
        return cls(
            base_url=endpoint.base_url,
            model=endpoint.model,
            api_key_env=endpoint.api_key_env,
            is_local=endpoint.is_local,
            timeout_seconds=float(endpoint.timeout_seconds),
            max_concurrency=int(endpoint.max_concurrency),
        )


@dataclass(frozen=True)
class ChatResult:
    text: str
    finish_reason: str
    prompt_tokens: int
    completion_tokens: int
    latency_ms: int
    logprobs: list[dict[str, Any]] | None = None
    raw: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)


@dataclass(frozen=True)
class EmbeddingResult:
    vectors: list[list[float]]
    prompt_tokens: int
    latency_ms: int
    raw: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)


@dataclass(frozen=True)
class LikelihoodResult:
    """The continuation's own tokens: their text and log-probabilities (natural log), in order."""

    tokens: tuple[str, ...]
    token_logprobs: tuple[float, ...]
    token_count: int
    byte_length: int  # UTF-8 bytes of the continuation text, for "bytes" normalisation
    prompt_tokens: int
    completion_tokens: int
    latency_ms: int
    raw: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    @property
    def logprob(self) -> float:
        return sum(self.token_logprobs)


@dataclass(frozen=True)
class LikelihoodSupport:
    supported: bool
    reason: str = ""


class LLMError(Exception):
    """A failed call. `kind`: timeout, connection, rate_limited, server_error, redirect, bad_request,
    bad_response, config. `retry_after`: seconds the server asked us to wait (429/503), if it said."""

    def __init__(
        self,
        message: str,
        *,
        kind: str,
        retryable: bool,
        status: int | None = None,
        retry_after: float | None = None,
        body: str = "",
        latency_ms: int | None = None,
    ):
        super().__init__(message)
        self.message = message
        self.kind = kind
        self.retryable = retryable
        self.status = status
        self.retry_after = retry_after
        self.body = body
        self.latency_ms = latency_ms


# --- transport: a total deadline per request ------------------------------------------------------


class _DeadlineStream(httpx2.SyncByteStream):
    def __init__(self, inner: Any, deadline: float):
        self.inner = inner
        self.deadline = deadline

    def __iter__(self) -> Iterator[bytes]:
        for chunk in self.inner:
            if time.monotonic() > self.deadline:
                raise httpx2.ReadTimeout("the reply took longer than the endpoint's timeout")
            yield chunk

    def close(self) -> None:
        self.inner.close()


class _DeadlineTransport(httpx2.HTTPTransport):
    def __init__(self, *, total_seconds: float, **kwargs: Any):
        super().__init__(**kwargs)
        self.total_seconds = total_seconds

    def handle_request(self, request: httpx2.Request) -> httpx2.Response:
        deadline = time.monotonic() + self.total_seconds
        response = super().handle_request(request)
        response.stream = _DeadlineStream(response.stream, deadline)
        return response


# --- clients, one per configuration and thread -----------------------------------------------------
#
# Each thread has its own client (and so its own connection pool of one kept-alive connection). One
# client shared by a drainer's 32 threads made every request queue twice on its pool's lock (taking a
# connection, giving it back), and the pool matches requests to connections in Python while holding
# it: under the interpreter lock that convoy was the largest part of a request's time in the client
# (py-spy on bench/benchmark_runs.py: half of the samples in httpcore's pool). The SSL context (the
# costly part of building a client, ~30 ms) is built once per process and shared.

_local = threading.local()
_ssl_lock = threading.Lock()
_ssl_context: Any = None


def _api_key(config: EndpointConfig) -> str:
    if not config.api_key_env:
        return "none"  # local servers ignore it; the openai client insists on one
    if not is_granted_key_name(config.api_key_env):
        # A row saved before names were restricted, or written in the database: its variable may be any
        # secret of the process (DJANGO_SECRET_KEY, DATABASE_URL), so no request is made with it.
        raise LLMError(
            f"The endpoint names {config.api_key_env} as its API key, which is not a variable granted to "
            f"endpoints (their names start with {KEY_PREFIX}); edit the endpoint.",
            kind="config",
            retryable=False,
        )
    key = os.environ.get(config.api_key_env, "")
    if not key:
        raise LLMError(
            f"The environment variable {config.api_key_env} (the endpoint's API key) is not set in this process.",
            kind="config",
            retryable=False,
        )
    return key


def _shared_ssl_context() -> Any:
    global _ssl_context
    with _ssl_lock:
        if _ssl_context is None:
            _ssl_context = httpx2.create_ssl_context()
        return _ssl_context


def _thread_clients() -> dict[tuple, tuple[openai.OpenAI, float]]:
    clients = getattr(_local, "clients", None)
    if clients is None:
        clients = _local.clients = {}
    return clients


def _client(config: EndpointConfig) -> openai.OpenAI:
    key = _api_key(config)
    cache_key = (config, key)
    clients = _thread_clients()
    now = time.monotonic()
    cached = clients.get(cache_key)
    if cached and now - cached[1] < REVALIDATE_SECONDS:
        return cached[0]
    if cached:
        cached[0].close()  # this thread's own, and it has no request in flight: its base URL is checked again
        del clients[cache_key]
    client = _client_build(config, key)
    clients[cache_key] = (client, now)
    return client


def close_thread_clients() -> None:
    """Close this thread's clients and their connections (a pool thread that is about to end)."""
    clients = _thread_clients()
    for client, _built in clients.values():
        client.close()
    clients.clear()


def _client_build(config: EndpointConfig, key: str) -> openai.OpenAI:
    try:
        base_url = validate_base_url(config.base_url, is_local=config.is_local)
    except BaseUrlRefused as exc:
        raise LLMError(f"Base URL refused: {exc}", kind="config", retryable=False) from exc
    timeout = httpx2.Timeout(config.timeout_seconds, connect=min(config.timeout_seconds, 10.0))
    http = httpx2.Client(
        timeout=timeout,
        follow_redirects=False,
        transport=_DeadlineTransport(
            total_seconds=config.timeout_seconds,
            verify=_shared_ssl_context(),
            # One request at a time per thread; a second connection only if the first was closed under it.
            limits=httpx2.Limits(max_connections=2, max_keepalive_connections=1),
        ),
    )
    return openai.OpenAI(api_key=key, base_url=base_url, timeout=timeout, max_retries=0, http_client=http)


# --- error classification --------------------------------------------------------------------------


def _retry_after(headers: Any) -> float | None:
    value = headers.get("retry-after") if headers is not None else None
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        return max(0.0, parsedate_to_datetime(value).timestamp() - time.time())
    except (TypeError, ValueError):
        return None


def _classify(exc: Exception, latency_ms: int) -> LLMError:
    if isinstance(exc, LLMError):
        return exc
    if isinstance(exc, openai.APITimeoutError):
        return LLMError("The endpoint did not answer in time.", kind="timeout", retryable=True, latency_ms=latency_ms)
    if isinstance(exc, openai.APIStatusError):
        status = exc.status_code
        body = exc.response.text[:2000] if exc.response is not None else ""
        retry_after = _retry_after(exc.response.headers) if exc.response is not None else None
        if 300 <= status < 400:
            where = exc.response.headers.get("location", "") if exc.response is not None else ""
            return LLMError(
                f"HTTP {status}: the endpoint redirects{' to ' + where if where else ''}; redirects are not followed.",
                kind="redirect",
                retryable=False,
                status=status,
                body=body,
                latency_ms=latency_ms,
            )
        if status == 429:
            kind = "rate_limited"
        elif status >= 500:
            kind = "server_error"
        elif status in RETRYABLE_STATUS:
            kind = "conflict"
        else:
            kind = "bad_request"
        retryable = status >= 500 or status in RETRYABLE_STATUS
        return LLMError(
            f"HTTP {status}: {body[:300]}",
            kind=kind,
            retryable=retryable,
            status=status,
            retry_after=retry_after,
            body=body,
            latency_ms=latency_ms,
        )
    if isinstance(exc, openai.APIConnectionError):
        cause = exc.__cause__ or exc
        return LLMError(
            f"Could not reach the endpoint: {cause}", kind="connection", retryable=True, latency_ms=latency_ms
        )
    if isinstance(
        exc, (json.JSONDecodeError, openai.APIResponseValidationError, ValueError, KeyError, IndexError, TypeError)
    ):
        return LLMError(
            f"The endpoint's reply is not a valid completion: {exc}",
            kind="bad_response",
            retryable=False,
            latency_ms=latency_ms,
        )
    raise exc


# --- calls -----------------------------------------------------------------------------------------


def _logprobs(choice: dict[str, Any]) -> list[dict[str, Any]] | None:
    content = (choice.get("logprobs") or {}).get("content")
    if not content:
        return None
    return [
        {
            "token": item["token"],
            "logprob": item["logprob"],
            "top": [{"token": t["token"], "logprob": t["logprob"]} for t in (item.get("top_logprobs") or [])],
        }
        for item in content
    ]


def _post(client: openai.OpenAI, path: str, body: dict[str, Any]) -> dict[str, Any]:
    """POST a request body through the SDK's client (its HTTP, errors and headers) and return the raw
    JSON reply. The raw JSON, read once, is what a call records. `client.post` with `cast_to` the HTTP
    response is the SDK's documented way to send a body as is: the typed `create()` methods first walk
    the body through their TypedDict transform, and that walk plus building pydantic objects for the
    reply cost about half of a call's CPU at 500 calls/s (bench/llm_runs.py, bench/benchmark_runs.py).
    """
    response = client.post(path, body=body, cast_to=httpx2.Response)
    return json.loads(response.text)


def chat(
    *,
    endpoint: EndpointConfig,
    messages: list[dict[str, Any]],
    max_tokens: int | None = None,
    temperature: float | None = None,
    logprobs: int | None = None,
    stop: list[str] | None = None,
    seed: int | None = None,
) -> ChatResult:
    """One chat completion. `logprobs=N` asks for the top N alternatives of each token."""
    started = time.perf_counter()
    kwargs: dict[str, Any] = {"model": endpoint.model, "messages": messages}
    if max_tokens is not None:
        kwargs["max_tokens"] = max_tokens
    if temperature is not None:
        kwargs["temperature"] = temperature
    if logprobs is not None:
        kwargs["logprobs"] = True
        kwargs["top_logprobs"] = logprobs
    if stop:
        kwargs["stop"] = stop
    if seed is not None:
        kwargs["seed"] = seed
    try:
        raw = _post(_client(endpoint), "/chat/completions", kwargs)
        latency_ms = int((time.perf_counter() - started) * 1000)
        choice = raw["choices"][0]
        usage = raw.get("usage") or {}
        content = (choice.get("message") or {}).get("content")
        if content is not None and not isinstance(content, str):
            raise TypeError("message content is not text")
        return ChatResult(
            text=content or "",
            finish_reason=choice.get("finish_reason") or "",
            prompt_tokens=int(usage.get("prompt_tokens") or 0),
            completion_tokens=int(usage.get("completion_tokens") or 0),
            latency_ms=latency_ms,
            logprobs=_logprobs(choice),
            raw=raw,
        )
    except Exception as exc:  # classified, or re-raised when it is a bug of ours
        raise _classify(exc, int((time.perf_counter() - started) * 1000)) from exc


def complete(
    *,
    endpoint: EndpointConfig,
    prompt: str,
    max_tokens: int | None = None,
    temperature: float | None = None,
    stop: list[str] | None = None,
    seed: int | None = None,
) -> ChatResult:
    """One plain (non-chat) completion of `prompt`, for base models without a chat template; the same
    small result as chat()."""
    started = time.perf_counter()
    kwargs: dict[str, Any] = {"model": endpoint.model, "prompt": prompt}
    if max_tokens is not None:
        kwargs["max_tokens"] = max_tokens
    if temperature is not None:
        kwargs["temperature"] = temperature
    if stop:
        kwargs["stop"] = stop
    if seed is not None:
        kwargs["seed"] = seed
    try:
        raw = _post(_client(endpoint), "/completions", kwargs)
        latency_ms = int((time.perf_counter() - started) * 1000)
        choice = raw["choices"][0]
        usage = raw.get("usage") or {}
        text = choice.get("text")
        if text is not None and not isinstance(text, str):
            raise TypeError("completion text is not text")
        return ChatResult(
            text=text or "",
            finish_reason=choice.get("finish_reason") or "",
            prompt_tokens=int(usage.get("prompt_tokens") or 0),
            completion_tokens=int(usage.get("completion_tokens") or 0),
            latency_ms=latency_ms,
            logprobs=None,
            raw=raw,
        )
    except Exception as exc:  # classified, or re-raised when it is a bug of ours
        raise _classify(exc, int((time.perf_counter() - started) * 1000)) from exc


def embed(*, endpoint: EndpointConfig, inputs: list[str]) -> EmbeddingResult:
    started = time.perf_counter()
    try:
        client = _client(endpoint)
        response = client.embeddings.create(model=endpoint.model, input=inputs)
        latency_ms = int((time.perf_counter() - started) * 1000)
        vectors = [list(item.embedding) for item in sorted(response.data, key=lambda d: d.index)]
        if len(vectors) != len(inputs):
            raise ValueError(f"{len(vectors)} vectors for {len(inputs)} inputs")
        usage = response.usage
        return EmbeddingResult(
            vectors=vectors,
            prompt_tokens=(usage.prompt_tokens or 0) if usage else 0,
            latency_ms=latency_ms,
            raw={"model": response.model, "usage": usage.model_dump() if usage else None, "count": len(vectors)},
        )
    except Exception as exc:
        raise _classify(exc, int((time.perf_counter() - started) * 1000)) from exc


# --- likelihood scoring ----------------------------------------------------------------------------

# max_tokens=1, never 0: llama-cpp-python reads 0 as "until the context is full" (measured: a 4k-token
# ramble, 3 min 46 s, for one score); servers that accept 0 give the same echo either way. The one
# generated token is recognised by its text and left out.
SCORE_MAX_TOKENS = 1
# The probe's text: after a few numbers any language model is sure of the next one, so the echoed
# log-probabilities show whether position i really is log P(token i | tokens before i).
PROBE_TEXT = ", ".join(str(n) for n in range(1, 31))
PROBE_MEAN_LOGPROB = -2.0  # aligned SmolLM2: -0.1 a token; misaligned: -12


def _unsupported(message: str, *, raw: dict | None = None, latency_ms: int | None = None) -> LLMError:
    return LLMError(
        f"The endpoint does not support likelihood scoring: {message}",
        kind="unsupported",
        retryable=False,
        body=json.dumps(raw)[:2000] if raw else "",
        latency_ms=latency_ms,
    )


def _echo(endpoint: EndpointConfig, prompt: str) -> tuple[dict[str, Any], int]:
    """One completions request echoing PROMPT with its tokens' log-probabilities: (raw reply, ms)."""
    started = time.perf_counter()
    try:
        body = {
            "model": endpoint.model,
            "prompt": prompt,
            "echo": True,
            "logprobs": 1,
            "max_tokens": SCORE_MAX_TOKENS,
            "temperature": 0,
        }
        raw = _post(_client(endpoint), "/completions", body)
        return raw, int((time.perf_counter() - started) * 1000)
    except Exception as exc:
        error = _classify(exc, int((time.perf_counter() - started) * 1000))
        if error.kind == "bad_request":  # a 4xx other than 408/409/429: the server refuses echo/logprobs
            raise _unsupported(error.message, latency_ms=error.latency_ms) from exc
        raise error from exc


def _echoed_tokens(raw: dict[str, Any], latency_ms: int) -> tuple[list[str], list[float | None]]:
    choice = (raw.get("choices") or [{}])[0]
    logprobs = choice.get("logprobs") or {}
    tokens, values = logprobs.get("tokens"), logprobs.get("token_logprobs")
    if not tokens or not isinstance(tokens, list) or not isinstance(values, list) or len(values) != len(tokens):
        raise _unsupported("the reply has no log-probabilities for the echoed prompt", raw=raw, latency_ms=latency_ms)
    if not all(isinstance(t, str) for t in tokens):
        raise TypeError("echoed tokens are not text")
    return tokens, values


def _prompt_end(tokens: list[str], prompt: str, raw: dict[str, Any]) -> int:
    """How many of the echoed tokens are the prompt's: the generated token(s) at the end are dropped
    when they are there. The OpenAI API lists them after the prompt's; llama-cpp-python leaves them
    out for a model without a BOS token. So: drop the trailing tokens whose text is exactly the
    generated text (the echoed text minus the prompt), unless what remains no longer ends like the prompt."""
    choice = raw["choices"][0]
    text = choice.get("text") or ""
    generated = text[len(prompt) :] if text.startswith(prompt) else ""
    completion_tokens = int((raw.get("usage") or {}).get("completion_tokens") or 0)
    n = len(tokens)
    for k in (completion_tokens, 0):
        if 0 <= k <= n and "".join(tokens[n - k :]) == (generated if k else ""):
            return n - k
    return n


def _continuation_start(
    endpoint: EndpointConfig, context: str, tokens: list[str], covered: str, latency_ms: int
) -> tuple[int, int]:
    """Where the continuation's tokens start when their text does not spell it: llama-cpp-python gives
    a token holding part of a multi-byte character (Arabic, most non-Latin scripts) the text "" (it
    decodes each token alone, dropping the bytes), so the tokens' text loses letters. The context is
    echoed alone, and its tokens are the ones the whole prompt shares with it (lm-evaluation-harness
    tokenises context and continuation apart); a last context token that the whole prompt merged with
    the continuation's start counts as the continuation's (the straddling rule above)."""
    raw, more_ms = _echo(endpoint, context)
    context_tokens, _ = _echoed_tokens(raw, more_ms)
    context_tokens = context_tokens[: _prompt_end(context_tokens, context, raw)]
    shared = 0
    for ours, theirs in zip(tokens, context_tokens, strict=False):
        if ours != theirs:
            break
        shared += 1
    if shared < len(context_tokens) - 1 or shared >= len(tokens):
        raise ValueError(f"the echoed tokens do not end with the continuation ({covered!r})")
    return shared, latency_ms + more_ms


def score_continuation(*, endpoint: EndpointConfig, context: str, continuation: str) -> LikelihoodResult:
    """log P(continuation | context): the token log-probabilities of the continuation's tokens.

    Method: one completions request for context+continuation with `echo`, `logprobs=1` and
    max_tokens=1; the generated token is dropped (`_prompt_end`); then tokens are taken from the end of
    the prompt backwards until their text covers the continuation. Edge cases, by design:
    - the text offsets the server reports are not used: llama-cpp-python counts them without a leading
      BOS token's text, so they do not match the prompt; the tokens' own text is exact everywhere;
    - a token that straddles the boundary (context "(" + continuation "A)" tokenised as "(A", ")")
      belongs to the continuation: its log-probability is the model's, conditioned on the context
      before it (lm-eval tokenises the two apart; a text API cannot);
    - an empty context is refused (the first token of a prompt has no log-probability), and so is an
      empty continuation (nothing to score);
    - tokens whose text does not spell the continuation (llama-cpp-python and multi-byte characters)
      are located by echoing the context alone (`_continuation_start`, one more request);
    - a continuation whose tokens cannot be found that way either (a server that normalises text) is a
      terminal `bad_response`; a reply without log-probabilities is terminal `unsupported`.
    """
    if not context:
        raise LLMError(
            "Likelihood scoring needs a context before the continuation.", kind="bad_request", retryable=False
        )
    if not continuation:
        raise LLMError("Likelihood scoring needs a non-empty continuation.", kind="bad_request", retryable=False)
    prompt = context + continuation
    raw, latency_ms = _echo(endpoint, prompt)
    try:
        tokens, values = _echoed_tokens(raw, latency_ms)
        end = _prompt_end(tokens, prompt, raw)
        start, covered = end, ""
        while start > 0 and len(covered) < len(continuation):
            start -= 1
            covered = tokens[start] + covered
        if not covered.endswith(continuation):
            start, latency_ms = _continuation_start(endpoint, context, tokens[:end], covered, latency_ms)
        picked = values[start:end]
        if any(not isinstance(v, (int, float)) for v in picked):
            raise ValueError("a continuation token has no log-probability")
        usage = raw.get("usage") or {}
        return LikelihoodResult(
            tokens=tuple(tokens[start:end]),
            token_logprobs=tuple(float(v) for v in picked),
            token_count=end - start,
            byte_length=len(continuation.encode("utf-8")),
            prompt_tokens=int(usage.get("prompt_tokens") or 0),
            completion_tokens=int(usage.get("completion_tokens") or 0),
            latency_ms=latency_ms,
            raw=raw,
        )
    except Exception as exc:
        raise _classify(exc, latency_ms) from exc


def supports_likelihood(endpoint: EndpointConfig, *, prefix: str = "") -> LikelihoodSupport:
    """Whether the endpoint gives correct echo log-probabilities, asked once before a run starts.

    `prefix`: how the run's prompts begin (e.g. a chat template's first special token). One request
    echoes prefix + "1, 2, ..., 30": unsupported when the server refuses (4xx) or returns no
    log-probabilities, and when the numbers late in the count are not likely (mean log-probability
    over the last half below PROBE_MEAN_LOGPROB): then position i does not hold log P(token i | before
    i). llama-cpp-python 0.3.x shows the latter for a model without a BOS token (SmolLM2): it pairs
    each token with the distribution *after* it (abetlen/llama-cpp-python#1983); a prompt that starts
    with the model's BOS token is scored right. Timeouts and connection errors are raised, not
    answered: the endpoint is down, not unable."""
    prompt = prefix + PROBE_TEXT
    try:
        raw, latency_ms = _echo(endpoint, prompt)
        tokens, values = _echoed_tokens(raw, latency_ms)
    except LLMError as error:
        if error.retryable:
            raise
        return LikelihoodSupport(False, error.message)
    end = _prompt_end(tokens, prompt, raw)
    tail = [v for v in values[:end][end // 2 :] if isinstance(v, (int, float))]
    if not tail:
        return LikelihoodSupport(False, "The endpoint does not support likelihood scoring: no log-probabilities.")
    mean = sum(tail) / len(tail)
    if mean < PROBE_MEAN_LOGPROB:
        return LikelihoodSupport(
            False,
            "The endpoint's echoed log-probabilities are misaligned with its tokens (a counting sequence "
            f"scored {mean:.2f} nats a token); likelihood scoring would be meaningless. llama-cpp-python "
            "does this for a model without a BOS token unless the prompt starts with it.",
        )
    return LikelihoodSupport(True, "")
