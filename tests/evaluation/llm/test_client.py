"""The one LLM client against a real HTTP server on loopback: results and error classes."""

from __future__ import annotations

import threading
import time

import pytest

from evaluation.llm import client as llm
from evaluation.llm.client import EndpointConfig, LLMError, chat, embed

USER = [{"role": "user", "content": "Apa ibu kota Jawa Barat?"}]


@pytest.fixture
def config(llm_server):
    return EndpointConfig(base_url=llm_server.url, model="test-model", is_local=True, timeout_seconds=1.5)


def _error(config, **behaviour) -> LLMError:
    with pytest.raises(LLMError) as caught:
        chat(endpoint=config, messages=USER)
    return caught.value


def test_a_reply_becomes_a_small_result(llm_server, config):
    llm_server.configure(replies=[{"match": "Jawa Barat", "reply": "Bandung ."}])

    result = chat(endpoint=config, messages=USER, max_tokens=10, logprobs=1)

    assert (result.text, result.finish_reason, result.prompt_tokens, result.completion_tokens) == (
        "Bandung .",
        "stop",
        5,
        2,
    )
    assert result.logprobs == [
        {"token": "Bandung", "logprob": -0.25, "top": [{"token": "Bandung", "logprob": -0.25}]},
        {"token": ".", "logprob": -0.25, "top": [{"token": ".", "logprob": -0.25}]},
    ]
    assert result.raw["choices"][0]["message"]["content"] == "Bandung ."
    assert 0 <= result.latency_ms < 1500
    assert llm_server.stats()["chat"] == 1


def test_embeddings_come_back_in_input_order(llm_server, config):
    result = embed(endpoint=config, inputs=["satu dua", "tiga"])

    assert len(result.vectors) == 2
    assert all(len(v) == 8 for v in result.vectors)
    assert result.vectors[0] != result.vectors[1]
    assert result.prompt_tokens == 3


@pytest.mark.parametrize(
    ("behaviour", "kind", "retryable", "status", "retry_after"),
    [
        ({"status": 429, "retry_after": 7}, "rate_limited", True, 429, 7.0),
        ({"status": 500}, "server_error", True, 500, None),
        ({"status": 503, "retry_after": 2}, "server_error", True, 503, 2.0),
        ({"status": 400}, "bad_request", False, 400, None),
        ({"status": 404}, "bad_request", False, 404, None),
        ({"malformed": True}, "bad_response", False, None, None),
        ({"redirect": "http://127.0.0.1:6379/"}, "redirect", False, 302, None),
    ],
    ids=["429", "500", "503", "400", "404", "malformed", "redirect"],
)
def test_errors_are_classified_and_never_retried_by_the_client(
    llm_server, config, behaviour, kind, retryable, status, retry_after
):
    llm_server.configure(default=behaviour)

    error = _error(config)

    assert (error.kind, error.retryable, error.status, error.retry_after) == (kind, retryable, status, retry_after)
    assert llm_server.stats()["chat"] == 1  # max_retries=0: one request, and no redirect followed


@pytest.mark.parametrize("behaviour", [{"hang": 10}, {"slow": 10}], ids=["hang", "slow-stream"])
def test_a_hang_or_a_trickle_is_cut_at_the_timeout(llm_server, config, behaviour):
    llm_server.configure(default=behaviour)
    started = time.monotonic()

    error = _error(config)

    elapsed = time.monotonic() - started
    assert (error.kind, error.retryable) == ("timeout", True)
    assert 1.4 < elapsed < 3.5


def test_a_refused_connection_is_retryable(config):
    closed = EndpointConfig(base_url="http://127.0.0.1:9/v1", model="m", is_local=True, timeout_seconds=2)

    with pytest.raises(LLMError) as caught:
        chat(endpoint=closed, messages=USER)

    assert (caught.value.kind, caught.value.retryable) == ("connection", True)


def test_a_missing_key_variable_is_a_clear_terminal_error(llm_server, monkeypatch):
    monkeypatch.delenv("GOTONG_LLM_KEY_TEST_NO_SUCH", raising=False)
    config = EndpointConfig(
        base_url=llm_server.url, model="m", is_local=True, api_key_env="GOTONG_LLM_KEY_TEST_NO_SUCH"
    )

    with pytest.raises(LLMError) as caught:
        chat(endpoint=config, messages=USER)

    assert caught.value.kind == "config"
    assert caught.value.message == (
        "The environment variable GOTONG_LLM_KEY_TEST_NO_SUCH (the endpoint's API key) is not set in this process."
    )
    assert llm_server.stats()["requests"] == 0


def test_a_loopback_url_without_the_local_tick_is_refused_before_any_request(llm_server):
    config = EndpointConfig(base_url=llm_server.url, model="m", is_local=False)

    with pytest.raises(LLMError) as caught:
        chat(endpoint=config, messages=USER)

    assert caught.value.kind == "config"
    assert llm_server.stats()["requests"] == 0


def test_each_thread_keeps_its_own_client_and_closes_it_when_done(llm_server, config):
    """A client per thread (no request waits on another thread's pool lock), reused by that thread's
    next request and closed, with its connection, by close_thread_clients."""
    seen: dict[str, list] = {}

    def work(name: str) -> None:
        first = llm._client(config)
        chat(endpoint=config, messages=[{"role": "user", "content": name}])
        second = llm._client(config)
        llm.close_thread_clients()
        seen[name] = [first, second, first.is_closed(), llm._client(config)]
        llm.close_thread_clients()

    threads = [threading.Thread(target=work, args=(name,)) for name in ("a", "b")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    a, b = seen["a"], seen["b"]
    assert a[0] is a[1] and b[0] is b[1]  # one client per thread, kept between requests
    assert a[0] is not b[0]
    assert a[2] is True and b[2] is True  # closed by close_thread_clients
    assert a[3] is not a[0]  # the next request builds a new one
    assert llm_server.stats()["by_prompt"] == {"a": 1, "b": 1}
