"""A real model end to end through the run machinery: a small generation run (LLM_GEN) executed by a real
Celery worker process (prefork, on Redis and PostgreSQL) against SmolLM2-135M-Instruct served by llama.cpp
on loopback. The call is recorded with the model's real token usage, and what the 135M model wrote is
accounted for: items in QC, or drafts filtered with their reason."""

from __future__ import annotations

from annotation.models import Item
from evaluation.local_model import MODEL_ALIAS
from evaluation.models import Call, FilteredDraft, GeneratedItem
from evaluation.services.endpoints import endpoint_create
from evaluation.services.runs import run_create
from evaluation.task_types.csqa.generation.pipeline import REASONS
from tests.evaluation.helpers import run_finished, wait_for
from tests.evaluation.test_run_workers import pytestmark, workers  # noqa: F401  (celery + transactional db; workers)
from tests.factories import make_csqa_project
from tests.qc.test_run_faults import broker  # noqa: F401  (the Redis broker fixture of `workers`)

MAX_TOKENS = 400
# The kind's own reasons, and the ones it adds for a reply with nothing readable or a concept without an item.
KNOWN_REASONS = {*REASONS, "unreadable", "no_item"}


def test_a_generation_run_on_a_real_worker_records_the_real_models_call(workers, local_model):  # noqa: F811
    world = make_csqa_project(slug="smol", annotators=1, categories=1, concepts_per_category=3)
    endpoint = endpoint_create(
        name="smollm2-local",
        base_url=local_model.base_url,
        model=local_model.model,
        is_local=True,
        timeout_seconds=120,
        max_concurrency=1,  # llama.cpp's server answers one request at a time
    )
    workers.start("w1")

    run = run_create(
        kind="llm_gen",
        endpoints=[endpoint],
        parameters={"max_tokens": MAX_TOKENS, "temperature": 0},
        project=world.project,
        user=world.admin,
    )
    wait_for(lambda: run_finished(run), 180, "the generation run to finish", workers.output)

    # Three concepts of one category: one batch, one call.
    calls = list(Call.objects.filter(run=run))
    assert (run.status, run.calls_done, run.calls_failed, run.total) == ("done", 1, 0, 1), workers.output()
    (call,) = calls
    assert (call.status, call.attempts, call.endpoint_id) == ("done", 1, endpoint.pk)
    assert call.response["model"] == MODEL_ALIAS
    assert call.text.strip()
    assert call.finish_reason in {"stop", "length"}
    assert call.prompt_tokens > 100  # the paper's prompt with three concepts
    assert 0 < call.completion_tokens <= MAX_TOKENS
    assert call.response["usage"]["total_tokens"] == call.prompt_tokens + call.completion_tokens
    assert (run.prompt_tokens, run.completion_tokens) == (call.prompt_tokens, call.completion_tokens)

    generated = list(GeneratedItem.objects.filter(run=run).select_related("item"))
    filtered = list(FilteredDraft.objects.filter(run=run))
    assert generated or filtered, "the reply left neither an item nor a filtered draft"
    assert {g.call_id for g in generated} | {f.call_id for f in filtered} == {call.pk}
    assert {f.reason for f in filtered} <= KNOWN_REASONS
    for g in generated:
        assert (g.item.source, g.model, g.item.project_id) == (Item.Source.LLM_GEN, MODEL_ALIAS, world.project.pk)
    print(
        f"llm_gen on SmolLM2: {call.prompt_tokens} + {call.completion_tokens} tokens in {call.latency_ms} ms; "
        f"{len(generated)} items, filtered {sorted(f.reason for f in filtered)}; reply {call.text!r}"
    )
