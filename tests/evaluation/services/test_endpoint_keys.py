"""The endpoint service accepts only granted key variables; an old row naming another one sends nothing."""

from __future__ import annotations

import pytest

from annotation.errors import InvalidInput
from evaluation.models import Endpoint
from evaluation.services.endpoints import endpoint_create, endpoint_test, endpoint_update
from tests.evaluation.helpers import make_endpoint
from tests.evaluation.keys import REFUSAL, SECRET, key_env  # noqa: F401  (fixture)

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("variable", ["DJANGO_SECRET_KEY", "DATABASE_URL", "PATH"])
def test_creating_an_endpoint_with_another_variable_is_refused(llm_server, key_env, variable):  # noqa: F811
    with pytest.raises(InvalidInput) as caught:
        endpoint_create(name="leak", base_url=llm_server.url, model="m", is_local=True, api_key_env=variable)

    assert (caught.value.http_status, caught.value.message) == (400, REFUSAL)
    assert caught.value.field_errors == {"api_key_env": [REFUSAL]}
    assert Endpoint.objects.count() == 0


@pytest.mark.parametrize("variable", ["DJANGO_SECRET_KEY", "DATABASE_URL", "PATH"])
def test_editing_an_endpoint_to_another_variable_is_refused(llm_server, key_env, variable):  # noqa: F811
    endpoint = make_endpoint(llm_server, api_key_env="GOTONG_LLM_KEY_LOCAL")

    with pytest.raises(InvalidInput) as caught:
        endpoint_update(endpoint=endpoint, api_key_env=variable)

    assert caught.value.field_errors == {"api_key_env": [REFUSAL]}
    assert Endpoint.objects.values_list("api_key_env", flat=True).get() == "GOTONG_LLM_KEY_LOCAL"


def test_the_refusal_says_when_no_variable_is_granted(llm_server, key_env):  # noqa: F811
    key_env.delenv("GOTONG_LLM_KEY_OPENAI")
    key_env.delenv("GOTONG_LLM_KEY_LOCAL")

    with pytest.raises(InvalidInput) as caught:
        endpoint_create(name="leak", base_url=llm_server.url, model="m", is_local=True, api_key_env="PATH")

    assert caught.value.message == (
        "Only an environment variable granted to endpoints can hold a key: its name starts with GOTONG_LLM_KEY_. "
        "Set here: none."
    )


def test_a_granted_variable_is_saved_and_its_key_sent_by_the_test(llm_server, key_env):  # noqa: F811
    endpoint = make_endpoint(llm_server, api_key_env="GOTONG_LLM_KEY_OPENAI")

    outcome = endpoint_test(endpoint=endpoint)

    assert (outcome.ok, endpoint.api_key_env) == (True, "GOTONG_LLM_KEY_OPENAI")
    assert llm_server.stats()["authorizations"] == ["Bearer sk-granted-openai"]


def test_testing_an_old_row_naming_the_secret_key_sends_nothing(llm_server, key_env):  # noqa: F811
    endpoint = make_endpoint(llm_server)
    Endpoint.objects.filter(pk=endpoint.pk).update(api_key_env="DJANGO_SECRET_KEY")  # saved before the rule
    endpoint.refresh_from_db()

    outcome = endpoint_test(endpoint=endpoint)

    assert (outcome.ok, outcome.error) == (
        False,
        "The endpoint names DJANGO_SECRET_KEY as its API key, which is not a variable granted to endpoints "
        "(their names start with GOTONG_LLM_KEY_); edit the endpoint.",
    )
    stats = llm_server.stats()
    assert (stats["requests"], stats["authorizations"]) == (0, [])
    assert SECRET not in outcome.error
