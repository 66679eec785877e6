"""Runs without Redis (eager): the whole engine inside this process against the real test server."""

from __future__ import annotations

import pytest

from annotation.errors import IllegalTransition, InvalidInput
from evaluation.models import Call, Run
from evaluation.services.runs import run_cancel, run_create, run_pause, run_resume
from tests.evaluation.helpers import make_endpoint, runs_stay_pending

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def fast_retries(eager_tasks):
    settings = eager_tasks
    settings.GOTONG_LLM_BACKOFF_SECONDS = 0.05
    settings.GOTONG_LLM_MAX_ATTEMPTS = 4
    return settings


def _prompts(n: int) -> list[str]:
    return [f"Pertanyaan nomor {i}" for i in range(n)]


def test_a_responses_run_records_every_reply_once(llm_server, fast_retries):
    endpoint = make_endpoint(
        llm_server, max_concurrency=4, price_input_per_million="1000", price_output_per_million="2000"
    )

    run = run_create(kind="responses", endpoints=[endpoint], parameters={"prompts": _prompts(30)})

    run.refresh_from_db()
    calls = list(Call.objects.filter(run=run).order_by("unit_key"))
    assert (run.status, run.total, run.progress, run.calls_done, run.calls_failed) == ("done", 30, 30, 30, 0)
    assert (run.prompt_tokens, run.completion_tokens) == (30 * 3, 30 * 5)
    assert str(run.cost) == f"{(90 * 1000 + 150 * 2000) / 1_000_000:.6f}"
    assert {c.status for c in calls} == {"done"}
    assert {c.attempts for c in calls} == {1}
    assert calls[0].text == "Reply to: Pertanyaan nomor 0"
    assert calls[0].request == {"messages": [{"role": "user", "content": "Pertanyaan nomor 0"}], "params": {}}
    stats = llm_server.stats()
    assert stats["chat"] == 30
    assert 1 <= stats["max_concurrent"] <= 4


def test_retries_are_counted_exactly_and_a_400_is_not_retried(llm_server, fast_retries):
    llm_server.configure(
        faults=[
            {"match": "nomor 1", "then": [{"status": 429, "retry_after": 0.2}, {"status": 500}]},
            {"match": "nomor 2", "then": [{"status": 400, "body": "bad prompt"}]},
            {"match": "nomor 3", "then": [{"status": 503}] * 4},
        ]
    )
    endpoint = make_endpoint(llm_server)

    run = run_create(kind="responses", endpoints=[endpoint], parameters={"prompts": _prompts(4)})

    run.refresh_from_db()
    calls = {c.unit_key: c for c in Call.objects.filter(run=run)}
    assert (run.status, run.calls_done, run.calls_failed, run.progress, run.total) == ("done", 2, 2, 4, 4)
    assert [(k, calls[k].status, calls[k].attempts, calls[k].error_kind) for k in ("p1", "p2", "p3", "p4")] == [
        ("p1", "done", 1, ""),
        ("p2", "done", 3, ""),
        ("p3", "failed", 1, "bad_request"),
        ("p4", "failed", 4, "server_error"),
    ]
    assert calls["p3"].error.startswith("HTTP 400:")
    assert calls["p3"].response == {"status": 400, "body": '{"error": {"message": "bad prompt", "type": "scripted"}}'}
    by_prompt = llm_server.stats()["by_prompt"]
    assert [by_prompt[f"Pertanyaan nomor {i}"] for i in range(4)] == [1, 3, 1, 4]


def test_unknown_kinds_and_empty_prompts_are_refused_and_nothing_is_created(llm_server, fast_retries):
    endpoint = make_endpoint(llm_server)

    with pytest.raises(InvalidInput) as unknown:
        run_create(kind="nope", endpoints=[endpoint], parameters={})
    with pytest.raises(InvalidInput) as empty:
        run_create(kind="responses", endpoints=[endpoint], parameters={"prompts": []})

    from evaluation.kinds import kinds

    assert unknown.value.message == f"Unknown run kind “nope”; known: {', '.join(sorted(kinds()))}."
    assert "responses" in kinds()
    assert empty.value.message == "Give at least one prompt."
    assert Run.objects.count() == 0


def test_pause_resume_and_cancel_follow_the_state_machine(llm_server, fast_retries):
    endpoint = make_endpoint(llm_server)
    with runs_stay_pending():
        run = run_create(kind="responses", endpoints=[endpoint], parameters={"prompts": _prompts(3)})

    paused = run_pause(run=run)
    with pytest.raises(IllegalTransition) as twice:
        run_pause(run=run)
    resumed = run_resume(run=run)  # eager: the resumed run executes at once

    run.refresh_from_db()
    assert paused.status == "paused"
    assert twice.value.message == "A paused run cannot be paused."
    assert resumed.attempts == 0
    assert (run.status, run.calls_done) == ("done", 3)
    with pytest.raises(IllegalTransition) as late:
        run_cancel(run=run)
    assert late.value.message == "A done run cannot be cancelled."
    assert Run.objects.get(pk=run.pk).status == "done"
