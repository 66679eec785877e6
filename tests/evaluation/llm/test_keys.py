"""Which variables an endpoint may name as its key, and the client's check before every call."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from evaluation.llm.client import EndpointConfig, LLMError, chat
from evaluation.llm.keys import granted_key_names, is_granted_key_name
from tests.evaluation.keys import DATABASE, SECRET, key_env  # noqa: F401  (fixture)

USER = [{"role": "user", "content": "Halo?"}]


@pytest.mark.parametrize(
    ("name", "granted"),
    [
        ("GOTONG_LLM_KEY_OPENAI", True),
        ("GOTONG_LLM_KEY_a1_", True),
        ("GOTONG_LLM_KEY_" + "X" * 85, True),
        ("GOTONG_LLM_KEY_" + "X" * 86, False),  # longer than Endpoint.api_key_env holds
        ("GOTONG_LLM_KEY_", False),
        ("DJANGO_SECRET_KEY", False),
        ("DATABASE_URL", False),
        ("PATH", False),
        ("gotong_llm_key_openai", False),
        ("GOTONG_LLM_KEY_OPENAI\n", False),
        ("GOTONG_LLM_KEY_A-B", False),
        (" GOTONG_LLM_KEY_OPENAI", False),
    ],
)
def test_only_names_with_the_prefix_are_granted(name, granted):
    assert is_granted_key_name(name) is granted


@given(st.text(max_size=120))
def test_a_granted_name_is_the_prefix_and_word_characters(name):
    expected = (
        name.startswith("GOTONG_LLM_KEY_")
        and 16 <= len(name) <= 100
        and re.fullmatch(r"[A-Za-z0-9_]+", name[15:], re.ASCII) is not None
    )

    assert is_granted_key_name(name) is expected


def test_the_granted_names_are_those_set_with_the_prefix(key_env):  # noqa: F811
    key_env.setenv("GOTONG_LLM_KEY_EMPTY", "")  # as compose passes a key the operator left out

    assert granted_key_names() == ["GOTONG_LLM_KEY_LOCAL", "GOTONG_LLM_KEY_OPENAI"]


@pytest.mark.parametrize("variable", ["DJANGO_SECRET_KEY", "DATABASE_URL", "PATH"])
def test_a_call_naming_another_variable_fails_before_any_request(llm_server, key_env, variable):  # noqa: F811
    config = EndpointConfig(base_url=llm_server.url, model="m", is_local=True, api_key_env=variable)

    with pytest.raises(LLMError) as caught:
        chat(endpoint=config, messages=USER)

    assert (caught.value.kind, caught.value.retryable) == ("config", False)
    assert caught.value.message == (
        f"The endpoint names {variable} as its API key, which is not a variable granted to endpoints "
        "(their names start with GOTONG_LLM_KEY_); edit the endpoint."
    )
    stats = llm_server.stats()
    assert (stats["requests"], stats["authorizations"]) == (0, [])


def test_a_granted_key_is_sent_and_nothing_else(llm_server, key_env):  # noqa: F811
    granted = EndpointConfig(base_url=llm_server.url, model="m", is_local=True, api_key_env="GOTONG_LLM_KEY_OPENAI")
    keyless = EndpointConfig(base_url=llm_server.url, model="m", is_local=True)

    chat(endpoint=granted, messages=USER)
    chat(endpoint=keyless, messages=USER)

    authorizations = llm_server.stats()["authorizations"]
    assert authorizations == ["Bearer sk-granted-openai", "Bearer none"]
    assert not [a for a in authorizations if SECRET in a or DATABASE in a]
