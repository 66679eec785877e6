"""Likelihood scoring: each option's continuation scored through the one LLM client (completions with
`echo` and `logprobs`), the most likely option picked under token, byte or no normalisation. Against
the scripted test server (exact picks and scores, the unsupported cases) and against the real SmolLM2
served by llama.cpp (20 id-csqa items)."""

from __future__ import annotations

import time

import pytest

from evaluation.benchmarks.likelihood import OptionScore, pick
from evaluation.llm.client import (
    EndpointConfig,
    LikelihoodSupport,
    LLMError,
    score_continuation,
    supports_likelihood,
)
from tests.evaluation.shared_data import idcsqa

CONTEXT = "Pertanyaan: Kota apa yang dijuluki Kota Kembang?\nJawaban:"
# continuation -> scripted log-probability of each of its tokens (the server's tokens are words).
SCRIPT = {
    " Surabaya": [-2.0],  # 1 token, 9 bytes: -2.0 a token, -0.2222 a byte  <- most likely by bytes
    " Bandung": [-3.0],  # 1 token, 8 bytes: -3.0, -0.375
    " Kota Bandung lama": [-1.0, -1.5, -2.5],  # 3 tokens, 18 bytes: -1.6667, -0.2778  <- by tokens
    " Jakarta Raya": [-2.0, -2.0],  # 2 tokens, 13 bytes: -2.0, -0.3077
    " Medan": [-4.0],  # 1 token, 6 bytes: -4.0, -0.6667
}
OPTIONS = list(SCRIPT)


@pytest.fixture
def config(llm_server):
    return EndpointConfig(base_url=llm_server.url, model="test-model", is_local=True, timeout_seconds=5)


def _scores(config) -> list[OptionScore]:
    return [
        OptionScore.of(score_continuation(endpoint=config, context=CONTEXT, continuation=option)) for option in OPTIONS
    ]


def test_a_continuation_comes_back_with_its_own_tokens_logprobs(llm_server, config):
    llm_server.configure(likelihood=SCRIPT)

    result = score_continuation(endpoint=config, context=CONTEXT, continuation=" Kota Bandung lama")

    assert result.tokens == (" Kota", " Bandung", " lama")
    assert result.token_logprobs == (-1.0, -1.5, -2.5)
    assert (result.token_count, result.byte_length, result.logprob) == (3, 18, -5.0)
    # The server's usage: 8 words of context + 3 of the continuation; the one generated token.
    assert (result.prompt_tokens, result.completion_tokens) == (11, 1)
    assert result.raw["choices"][0]["text"] == CONTEXT + " Kota Bandung lama ."
    assert 0 <= result.latency_ms < 5000
    assert llm_server.stats()["completions"] == 1


def test_the_pick_is_the_highest_scripted_logprob_under_each_normalisation(llm_server, config):
    llm_server.configure(likelihood=SCRIPT)
    assert supports_likelihood(config) == LikelihoodSupport(True, "")

    scores = _scores(config)

    by_tokens = pick(scores, "tokens")
    assert OPTIONS[by_tokens.index] == " Kota Bandung lama"  # option C
    assert by_tokens.scores == (-2.0, -3.0, -5.0 / 3, -2.0, -4.0)
    by_bytes = pick(scores, "bytes")
    assert OPTIONS[by_bytes.index] == " Surabaya"  # option A
    assert by_bytes.scores == (-2.0 / 9, -3.0 / 8, -5.0 / 18, -4.0 / 13, -4.0 / 6)
    by_sum = pick(scores, "none")
    assert (by_sum.index, by_sum.scores) == (0, (-2.0, -3.0, -5.0, -4.0, -4.0))
    assert llm_server.stats()["completions"] == 1 + len(OPTIONS)  # the probe, then one call per option


def test_ties_go_to_the_first_option_and_bad_input_is_refused():
    equal = [OptionScore((-1.0, -3.0), 4), OptionScore((-2.0,), 2), OptionScore((-4.0,), 8)]
    assert pick(equal, "tokens").scores == (-2.0, -2.0, -4.0)
    assert pick(equal, "tokens").index == 0  # the first of two equals
    assert pick(equal, "bytes").scores == (-1.0, -1.0, -0.5)
    assert pick(equal, "bytes").index == 2
    assert pick([OptionScore((-1.0,), 1), OptionScore((-1.0,), 1)], "none").index == 0
    with pytest.raises(ValueError, match="unknown normalisation 'chars'"):
        pick(equal, "chars")
    with pytest.raises(ValueError, match="no tokens"):
        pick([OptionScore((), 3)], "tokens")
    with pytest.raises(ValueError, match="no options"):
        pick([], "tokens")


@pytest.mark.parametrize(
    ("config_", "reason"),
    [
        (
            {"default": {"status": 400, "body": "echo is not supported"}},
            "The endpoint does not support likelihood scoring: HTTP 400:",
        ),
        ({"completion_logprobs": False}, "The endpoint does not support likelihood scoring: the reply has no log-"),
    ],
)
def test_an_endpoint_without_echo_logprobs_is_refused_before_anything_is_scored(llm_server, config, config_, reason):
    llm_server.configure(**config_)

    support = supports_likelihood(config)

    assert support.supported is False
    assert support.reason.startswith(reason)
    assert llm_server.stats()["completions"] == 1  # the probe only
    # Scoring anyway fails with the same clear, terminal error.
    with pytest.raises(LLMError) as caught:
        score_continuation(endpoint=config, context=CONTEXT, continuation=" Bandung")
    assert (caught.value.kind, caught.value.retryable) == ("unsupported", False)
    assert caught.value.message.startswith(reason)


def test_a_server_that_is_down_is_not_called_unsupported(llm_server, config):
    llm_server.configure(default={"status": 503, "retry_after": 2})

    with pytest.raises(LLMError) as caught:
        supports_likelihood(config)

    assert (caught.value.kind, caught.value.retryable, caught.value.retry_after) == ("server_error", True, 2.0)


def test_an_empty_context_or_continuation_is_refused_without_a_request(llm_server, config):
    for context, continuation in (("", " Bandung"), (CONTEXT, "")):
        with pytest.raises(LLMError) as caught:
            score_continuation(endpoint=config, context=context, continuation=continuation)
        assert (caught.value.kind, caught.value.retryable) == ("bad_request", False)
    assert llm_server.stats()["requests"] == 0


# --- the real model ---------------------------------------------------------------------------------

ITEMS = 20
# SmolLM2's BOS token. llama-cpp-python pairs each echoed token with the distribution *after* it
# unless the prompt starts with the model's BOS token (abetlen/llama-cpp-python#1983); the ChatML
# prompts SmolLM2 was trained on start with it anyway.
BOS = "<|im_start|>"


def test_the_real_model_scores_20_csqa_items_by_likelihood(local_model):
    endpoint = EndpointConfig(
        base_url=local_model.base_url, model=local_model.model, is_local=True, timeout_seconds=120, max_concurrency=1
    )

    # The probe finds the real server's misalignment without the BOS token, and none with it.
    plain = supports_likelihood(endpoint)
    assert plain.supported is False
    assert "misaligned" in plain.reason
    assert supports_likelihood(endpoint, prefix=BOS) == LikelihoodSupport(True, "")

    items = idcsqa("v2_human_gen")[:ITEMS]
    started = time.monotonic()
    picks, calls = [], 0
    for item in items:
        context = f"{BOS}Pertanyaan: {item['question']}\nJawaban:"
        options = item["choices"]["text"]
        results = [score_continuation(endpoint=endpoint, context=context, continuation=f" {o}") for o in options]
        calls += len(results)
        for option, result in zip(options, results, strict=True):
            assert result.token_count > 0
            assert "".join(result.tokens).endswith(f" {option}")
            assert result.byte_length == len(f" {option}".encode())
            assert all(v <= 0 for v in result.token_logprobs)
            # Real usage from llama.cpp: the prompt's tokens (BOS included) and the one generated token;
            # the echo lists every token but BOS, plus the generated one.
            assert result.completion_tokens == 1
            assert result.prompt_tokens > result.token_count
            assert len(result.raw["choices"][0]["logprobs"]["tokens"]) == result.prompt_tokens
            assert result.raw["model"] == local_model.model
        scores = [OptionScore.of(r) for r in results]
        by_tokens, by_bytes = pick(scores, "tokens"), pick(scores, "bytes")
        assert by_tokens.index in range(len(options)) and by_bytes.index in range(len(options))
        picks.append((by_tokens.index, by_bytes.index, "ABCDE".index(item["answer_creator"])))
    seconds = time.monotonic() - started

    assert len(picks) == ITEMS and calls == ITEMS * 5
    correct_tokens = sum(t == gold for t, _, gold in picks)
    correct_bytes = sum(b == gold for _, b, gold in picks)
    print(
        f"likelihood on SmolLM2: {ITEMS} items, {calls} calls in {seconds:.1f} s ({seconds / calls:.2f} s a call); "
        f"correct by tokens {correct_tokens}/{ITEMS}, by bytes {correct_bytes}/{ITEMS}"
    )
