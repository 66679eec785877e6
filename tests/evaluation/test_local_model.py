"""A real model end to end: one chat completion from SmolLM2-135M-Instruct, served by llama.cpp on loopback,
through the module every LLM call of Gotong goes through."""

from __future__ import annotations

import time

from evaluation.llm.client import EndpointConfig, chat
from evaluation.local_model import MODEL_ALIAS

MAX_TOKENS = 24
MESSAGES = [
    {"role": "system", "content": "You answer in one short sentence."},
    {"role": "user", "content": "What is the capital city of Indonesia?"},
]
# SmolLM2's tokenizer over its ChatML template: "<|im_start|>system\n...<|im_end|>\n<|im_start|>user\n
# ...<|im_end|>\n<|im_start|>assistant\n".
PROMPT_TOKENS = 29


def test_the_real_model_answers_a_chat_completion_with_real_usage(local_model):
    endpoint = EndpointConfig(
        base_url=local_model.base_url, model=local_model.model, is_local=True, timeout_seconds=60, max_concurrency=1
    )

    started = time.monotonic()
    result = chat(endpoint=endpoint, messages=MESSAGES, max_tokens=MAX_TOKENS, temperature=0)
    seconds = time.monotonic() - started

    assert result.raw["model"] == MODEL_ALIAS
    assert len(result.raw["choices"]) == 1
    # Greedy decoding ends the one sentence well before the limit ("length" would mean it rambled).
    assert result.finish_reason == "stop"
    assert "Jakarta" in result.text
    assert result.prompt_tokens == PROMPT_TOKENS
    assert 0 < result.completion_tokens < MAX_TOKENS
    assert result.raw["usage"]["total_tokens"] == PROMPT_TOKENS + result.completion_tokens
    assert 0 < result.latency_ms <= seconds * 1000
    print(
        f"local model: started in {local_model.start_seconds:.1f} s; one request {seconds:.2f} s, "
        f"{result.completion_tokens / seconds:.1f} completion tokens/s; reply {result.text!r}"
    )
