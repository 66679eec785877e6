"""The command line: endpoint add / test, run show --json."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from evaluation.models import Endpoint
from evaluation.services.runs import run_create
from tests.evaluation.keys import REFUSAL, key_env  # noqa: F401  (fixture)

pytestmark = pytest.mark.django_db(transaction=True)


def _call(*args) -> str:
    out = StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


def test_add_test_and_show(llm_server, eager_tasks):
    llm_server.configure(replies=[{"match": "are you there", "reply": "Yes I am."}])

    added = _call(
        "endpoint",
        "add",
        "local",
        "--base-url",
        llm_server.url + "/",
        "--model",
        "m",
        "--local",
        "--max-concurrency",
        "3",
        "--rpm",
        "600",
    )
    tested = _call("endpoint", "test", "local")
    run = run_create(kind="responses", endpoints=[Endpoint.objects.get()], parameters={"prompts": ["a b", "c"]})
    shown = json.loads(_call("run", "show", str(run.pk), "--json"))

    endpoint = Endpoint.objects.get()
    assert added == f"Endpoint local added: {llm_server.url} (m).\n"
    assert (endpoint.is_local, endpoint.max_concurrency, endpoint.requests_per_minute) == (True, 3, 600)
    assert tested.startswith("local answered in ") and tested.endswith(" ms: Yes I am.\n")
    assert shown == {
        "id": run.pk,
        "kind": "responses",
        "status": "done",
        "total": 2,
        "done": 2,
        "failed": 0,
        "progress": 2,
        "prompt_tokens": 3,
        "completion_tokens": 7,
        "cost": "0.000000",
        "calls_per_second": shown["calls_per_second"],
        "error": "",
        "project": None,
        "endpoints": ["local"],
    }


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["endpoint", "add", "x", "--base-url", "http://169.254.169.254/", "--model", "m"],
            "“169.254.169.254” is a link-local address (cloud metadata lives there): refused.",
        ),
        (
            ["endpoint", "add", "x", "--base-url", "http://127.0.0.1:1/v1", "--model", "m"],
            "“127.0.0.1” is a loopback address (tick “local server” for a server on this machine): refused.",
        ),
        (
            ["endpoint", "add", "x", "--base-url", "file:///etc/passwd", "--model", "m"],
            "Only http and https URLs are allowed, not “file”.",
        ),
        (
            [
                "endpoint",
                "add",
                "x",
                "--base-url",
                "http://127.0.0.1:1/v1",
                "--model",
                "m",
                "--local",
                "--api-key-env",
                "sk-secret-key-pasted",
            ],
            REFUSAL,
        ),
        *[
            (
                ["endpoint", "add", "x", "--base-url", "http://127.0.0.1:1/v1", "--model", "m", "--local"]
                + ["--api-key-env", variable],
                REFUSAL,
            )
            for variable in ("DJANGO_SECRET_KEY", "DATABASE_URL", "PATH")
        ],
        (["endpoint", "test", "nope"], "No endpoint named “nope”."),
        (["run", "show", "999999", "--json"], "No run #999999."),
    ],
)
def test_clear_errors_and_nothing_created(args, message, key_env):  # noqa: F811
    with pytest.raises(CommandError) as caught:
        call_command(*args)

    assert str(caught.value) == message
    assert Endpoint.objects.count() == 0


def test_a_failing_endpoint_test_exits_non_zero(llm_server):
    llm_server.configure(default={"status": 500})
    _call("endpoint", "add", "broken", "--base-url", llm_server.url, "--model", "m", "--local")

    with pytest.raises(CommandError) as caught:
        call_command("endpoint", "test", "broken")

    assert str(caught.value).startswith("broken failed: HTTP 500:")
