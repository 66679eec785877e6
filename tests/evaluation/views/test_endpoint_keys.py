"""The endpoint pages offer only granted key variables, refuse others, and never send another variable."""

from __future__ import annotations

import pytest
from django.test import Client

from evaluation.models import Call, Endpoint, Run
from tests.evaluation.helpers import make_endpoint
from tests.evaluation.keys import REFUSAL, SECRET, key_env  # noqa: F401  (fixture)
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db(transaction=True)

OLD_ROW_ERROR = (
    "The endpoint names DJANGO_SECRET_KEY as its API key, which is not a variable granted to endpoints "
    "(their names start with GOTONG_LLM_KEY_); edit the endpoint."
)


@pytest.fixture
def staff_client():
    client = Client()
    client.force_login(UserFactory(username="root", is_staff=True))
    return client


def _form(url: str, **extra) -> dict:
    return {
        "name": "local",
        "base_url": url,
        "model": "test-model",
        "api_key_env": "",
        "is_local": "on",
        "timeout_seconds": "5",
        "max_concurrency": "2",
        **extra,
    }


def test_the_form_offers_the_granted_names_and_never_their_values(staff_client, key_env):  # noqa: F811
    page = staff_client.get("/evaluation/endpoints/new/").content.decode()

    assert (
        '<datalist id="api-key-names"><option value="GOTONG_LLM_KEY_LOCAL"></option>'
        '<option value="GOTONG_LLM_KEY_OPENAI"></option></datalist>'
    ) in page
    assert 'list="api-key-names"' in page
    assert "Set here: GOTONG_LLM_KEY_LOCAL, GOTONG_LLM_KEY_OPENAI." in page
    assert "sk-granted" not in page


@pytest.mark.parametrize("variable", ["DJANGO_SECRET_KEY", "DATABASE_URL", "PATH"])
def test_a_new_endpoint_naming_another_variable_is_refused(staff_client, llm_server, key_env, variable):  # noqa: F811
    response = staff_client.post("/evaluation/endpoints/new/", _form(llm_server.url, api_key_env=variable))

    assert response.status_code == 400
    assert f'<span class="error" role="alert" id="error-api_key_env">{REFUSAL}</span>' in response.content.decode()
    assert Endpoint.objects.count() == 0


@pytest.mark.parametrize("variable", ["DJANGO_SECRET_KEY", "DATABASE_URL", "PATH"])
def test_an_endpoint_edited_to_another_variable_is_refused(staff_client, llm_server, key_env, variable):  # noqa: F811
    endpoint = make_endpoint(llm_server, name="local", api_key_env="GOTONG_LLM_KEY_LOCAL")
    before = list(Endpoint.objects.values())

    response = staff_client.post(f"/evaluation/endpoints/{endpoint.pk}/", _form(llm_server.url, api_key_env=variable))

    assert response.status_code == 400
    assert REFUSAL in response.content.decode()
    assert list(Endpoint.objects.values()) == before


def test_a_granted_variable_is_saved_and_its_key_sent_by_the_test_button(staff_client, llm_server, key_env):  # noqa: F811
    created = staff_client.post(
        "/evaluation/endpoints/new/", _form(llm_server.url, api_key_env="GOTONG_LLM_KEY_OPENAI")
    )
    endpoint = Endpoint.objects.get()

    tested = staff_client.post(f"/evaluation/endpoints/{endpoint.pk}/test/", HTTP_HX_REQUEST="true")

    assert (created.status_code, endpoint.api_key_env, tested.status_code) == (302, "GOTONG_LLM_KEY_OPENAI", 200)
    assert llm_server.stats()["authorizations"] == ["Bearer sk-granted-openai"]


def _old_row(llm_server) -> Endpoint:
    """An endpoint saved before names were restricted (or written in the database) naming the secret key."""
    endpoint = make_endpoint(llm_server, name="old")
    Endpoint.objects.filter(pk=endpoint.pk).update(api_key_env="DJANGO_SECRET_KEY")
    endpoint.refresh_from_db()
    return endpoint


def test_the_test_button_on_an_old_row_sends_nothing(staff_client, llm_server, key_env):  # noqa: F811
    endpoint = _old_row(llm_server)

    tested = staff_client.post(f"/evaluation/endpoints/{endpoint.pk}/test/", HTTP_HX_REQUEST="true")

    assert tested.status_code == 200
    assert OLD_ROW_ERROR in tested.content.decode()
    assert SECRET not in tested.content.decode()
    stats = llm_server.stats()
    assert (stats["requests"], stats["authorizations"]) == (0, [])


def test_a_run_on_an_old_row_fails_its_calls_and_sends_nothing(llm_server, key_env, csqa, eager_tasks):  # noqa: F811
    _old_row(llm_server)
    client = Client()
    client.force_login(csqa.admin)

    started = client.post("/p/demo/runs/", {"endpoint": "old", "prompts": "Siapa?\nApa kabar?"})

    run = Run.objects.get()
    calls = list(Call.objects.filter(run=run).order_by("unit_key").values_list("status", "error_kind", "error"))
    assert started.status_code == 302
    assert (run.status, run.calls_done, run.calls_failed) == ("done", 0, 2)
    assert calls == [("failed", "config", OLD_ROW_ERROR), ("failed", "config", OLD_ROW_ERROR)]
    stats = llm_server.stats()
    assert (stats["requests"], stats["authorizations"]) == (0, [])
