"""The generate page checks a template's length before reading it, and keeps only a template a run took."""

from __future__ import annotations

import time

import pytest
from django.test import Client

from evaluation.models import PromptTemplate, Run
from tests.evaluation.helpers import make_endpoint
from tests.factories import make_csqa_project

pytestmark = pytest.mark.django_db(transaction=True)

TOO_LONG = "Keep the template under 20000 characters."


def _admin(world) -> Client:
    client = Client()
    client.force_login(world.admin)
    return client


@pytest.mark.parametrize("action", ["preview", "start"])
def test_a_template_of_two_megabytes_is_refused_and_nothing_is_kept(llm_server, action):
    world = make_csqa_project(slug="gen")
    endpoint = make_endpoint(llm_server, name="gpt4")
    admin = _admin(world)
    huge = "{" * (2 * 1024 * 1024 - 4096)  # the largest body a request may have, less the other fields

    started = time.perf_counter()
    response = admin.post(
        "/p/gen/generate/",
        {"action": action, "endpoint": endpoint.pk, "template": huge, "save_template": "1", "categories": ["cat0"]},
    )
    took = time.perf_counter() - started

    assert response.status_code == 400
    assert f'<p class="error" id="template-error">{TOO_LONG}</p>' in response.content.decode()
    assert (Run.objects.count(), PromptTemplate.objects.count(), llm_server.stats()["requests"]) == (0, 0, 0)
    # The whole request, echoing the text back into the form, not just the check (the scan took 22 s for
    # 80,000 characters); generous for a loaded machine.
    assert took < 2.0


def test_a_refused_template_is_not_kept_for_the_project(llm_server):
    world = make_csqa_project(slug="gen")
    endpoint = make_endpoint(llm_server, name="gpt4")

    response = _admin(world).post(
        "/p/gen/generate/", {"action": "start", "endpoint": endpoint.pk, "template": "{{ nope }}", "save_template": "1"}
    )

    assert response.status_code == 400
    assert "Unknown fields: {{ nope }}." in response.content.decode()
    assert (Run.objects.count(), PromptTemplate.objects.count()) == (0, 0)
