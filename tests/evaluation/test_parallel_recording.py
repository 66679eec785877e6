"""Two workers recording replies of one run at the same time, on PostgreSQL.

- Real Celery worker processes: an LLM_GEN run whose batches all repeat one question ends with that
  question created once and every repetition filtered `duplicate_in_run`; an LLM_ADAPT run whose five
  relevance votes per question are recorded by both workers decides each question once, no vote lost.
- In this process, with a second database connection in a thread standing for the other worker: a
  duplicate inserted by the other worker while our batch is being recorded is refused by the
  GeneratedItem (run, dedup_key) constraint and filtered; a PostgreSQL deadlock between the two
  aborts our batch, which is then recorded again from the start (nothing lost, nothing twice).
"""

from __future__ import annotations

import json
import logging
import threading

import pytest
from django.db import connection, transaction

from annotation.models import Item
from evaluation.calls import Outcome, calls_add, calls_claim
from evaluation.kinds import get_kind
from evaluation.llm import client as llm
from evaluation.models import AdaptationState, Call, FilteredDraft, GeneratedItem, Run
from evaluation.results import results_write
from evaluation.services.draft_summary import drafts_summary
from evaluation.services.drafts import draft_create
from evaluation.services.runs import run_create
from evaluation.task_types.csqa.generation.pipeline import question_key
from tests.evaluation.dup_script import SHARED_QUESTION
from tests.evaluation.helpers import make_endpoint, run_finished, runs_stay_pending, wait_for
from tests.evaluation.test_run_workers import workers  # noqa: F401  (real Celery workers)
from tests.factories import make_csqa_project
from tests.qc.test_run_faults import broker  # noqa: F401  (the Redis broker fixture)

pytestmark = [pytest.mark.django_db(transaction=True)]

DUP_HANDLER = "tests.evaluation.dup_script:reply"
DUP_IN_CONSTRAINT = "The same question was generated earlier in this run."


def _unique_question(concept: str) -> str:
    return f"Apa yang kamu ingat tentang {concept} di rumah?"


# --- real workers ------------------------------------------------------------------------------------


@pytest.mark.celery
def test_in_run_duplicates_on_two_workers_are_created_once_and_filtered(workers, llm_server):  # noqa: F811
    categories = 16
    llm_server.configure(handler=DUP_HANDLER, delay_ms=250)
    world = make_csqa_project(slug="dup", categories=categories, concepts_per_category=2)
    endpoint = make_endpoint(llm_server, max_concurrency=16)
    workers.start("w1", threads=4)
    workers.start("w2", threads=4)

    run = run_create(kind="llm_gen", endpoints=[endpoint], project=world.project, user=world.admin, parameters={})
    wait_for(lambda: run_finished(run), 90, "the run to finish", workers.output)

    # One call per category ("kunjung" + one concept of its own): 16 own questions and the shared one
    # once; the 15 other "kunjung" drafts filtered, however the two workers interleaved.
    assert (run.status, run.total, run.calls_done, run.calls_failed) == ("done", 16, 16, 0), workers.output()
    assert drafts_summary(run) == {
        "items_created": 17,
        "filtered": 15,
        "filtered_by_reason": {"duplicate_in_run": 15},
    }
    questions = sorted(
        Item.objects.filter(project=world.project).values_list("current_version__payload__question", flat=True)
    )
    assert questions == sorted([SHARED_QUESTION] + [_unique_question(f"konsep{c}x1") for c in range(categories)])
    assert set(FilteredDraft.objects.filter(run=run).values_list("concept_name", flat=True)) == {"kunjung"}
    assert llm_server.stats()["chat"] == 16
    done_by = workers.calls_logged(["w1", "w2"], total=run.calls_done)
    assert done_by["w1"] > 0 and done_by["w2"] > 0, workers.output()


def _adapt_question(i: int) -> dict:
    concept = "rice" if i % 2 == 0 else "snow"
    text = f"What do people eat with rice on day {i}?" if concept == "rice" else f"Where would you find snow, case {i}?"
    return {"id": f"q{i}", "question": text, "concept": concept, "choices": ["a", "b", "c", "d", "e"], "answer": "A"}


@pytest.mark.celery
def test_relevance_votes_recorded_by_two_workers_decide_each_question_once(workers, llm_server):  # noqa: F811
    questions = 20
    llm_server.configure(handler="tests.evaluation.adapt_script:reply", delay_ms=150)
    world = make_csqa_project(slug="adapt2")
    endpoint = make_endpoint(llm_server, max_concurrency=12)
    workers.start("w1", threads=5)
    workers.start("w2", threads=5)

    run = run_create(
        kind="llm_adapt",
        endpoints=[endpoint],
        project=world.project,
        user=world.admin,
        parameters={"questions": [_adapt_question(i) for i in range(questions)], "language": "Indonesian"},
    )
    wait_for(lambda: run_finished(run), 90, "the run to finish", workers.output)

    # 5 votes each; then one step each: to_language (rice, relevant) or adapt_all (snow, irrelevant).
    assert (run.status, run.total, run.calls_done, run.calls_failed) == ("done", 120, 120, 0), workers.output()
    templates = list(Call.objects.filter(run=run).values_list("template", flat=True))
    assert {t: templates.count(t) for t in set(templates)} == {"relevance": 100, "to_language": 10, "adapt_all": 10}
    states = list(AdaptationState.objects.filter(run=run))
    for state in states:
        rice = state.source["concept"] == "rice"
        assert state.votes == {str(i): rice for i in range(1, 6)}, state.source_id  # no vote lost
        assert (state.relevant, state.relevance_reason) == (rice, "majority" if rice else "majority")
    # The ten snow questions are all adapted to the same question: kept once, nine filtered.
    assert drafts_summary(run) == {
        "items_created": 11,
        "filtered": 9,
        "filtered_by_reason": {"duplicate_in_run": 9},
        "adaptation": {"questions": 20, "relevant": 10, "irrelevant": 10, "by_names_or_places": 0, "kept": 11},
    }
    done_by = workers.calls_logged(["w1", "w2"], total=120)
    assert done_by["w1"] > 0 and done_by["w2"] > 0, workers.output()


# --- in this process, a second connection as the other worker ----------------------------------------


def _generation_batch(llm_server):
    """A running LLM_GEN run of two batches (cat0, cat1), both claimed, with the server's real replies."""
    assert connection.vendor == "postgresql", "these tests need PostgreSQL (set DATABASE_URL)"
    llm_server.configure(handler=DUP_HANDLER)
    world = make_csqa_project(slug="dupe", categories=2, concepts_per_category=2)
    endpoint = make_endpoint(llm_server)
    with runs_stay_pending():
        run = run_create(kind="llm_gen", endpoints=[endpoint], project=world.project, user=world.admin, parameters={})
    Run.objects.filter(pk=run.pk).update(status=Run.Status.RUNNING)
    run.refresh_from_db()
    kind = get_kind("llm_gen")
    calls_add(run=run, units=list(kind.units(run)))
    claimed = calls_claim(run_id=run.pk, limit=10, lease_seconds=120)
    config = llm.EndpointConfig.of(endpoint)
    results = [(c, Outcome(result=llm.chat(endpoint=config, messages=c.request["messages"]))) for c in claimed]
    assert [c.unit_key for c, _ in results] == sorted(c.unit_key for c, _ in results) and len(results) == 2
    return run, kind, {endpoint.pk: endpoint}, results


class OtherWorker(threading.Thread):
    """Creates drafts of the run in its own transaction, one step at a time on the test's signal."""

    def __init__(self, run: Run, questions: list[str]):
        super().__init__(daemon=True)
        self.llm_run, self.questions = run, questions
        self.go = [threading.Event() for _ in questions] + [threading.Event()]
        self.done = [threading.Event() for _ in questions]
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            with transaction.atomic():
                for index, question in enumerate(self.questions):
                    self.go[index].wait(30)
                    draft_create(
                        run=self.llm_run,
                        call=None,
                        payload={"question": question, "choices": list("abcde"), "answer": "A"},
                        source=Item.Source.LLM_GEN,
                        model="other",
                        language="id",
                        dedup_key=question_key(question),
                    )
                    self.done[index].set()
                self.go[-1].wait(30)  # commit when told
        except BaseException as exc:  # reported by the test
            self.error = exc
            for event in self.done:
                event.set()
        finally:
            connection.close()


def _lock_waiters() -> int:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'"
        )
        return cursor.fetchone()[0]


def _record_in_thread(run, kind, endpoints, results):
    box: dict = {}

    def target():
        try:
            box["tally"] = results_write(run=run, kind=kind, endpoints=endpoints, results=results)
        except BaseException as exc:
            box["error"] = exc
        finally:
            connection.close()

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    return thread, box


def test_a_duplicate_committed_by_another_worker_meanwhile_is_refused_by_the_constraint(llm_server):
    run, kind, endpoints, results = _generation_batch(llm_server)
    other = OtherWorker(run, [_unique_question("konsep1x1")])
    other.start()
    other.go[0].set()
    assert other.done[0].wait(10) and other.error is None

    recorder, box = _record_in_thread(run, kind, endpoints, results)
    wait_for(lambda: _lock_waiters() == 1, 10, "our batch to wait on the other worker's insert")
    other.go[-1].set()  # the other worker commits: our insert of the same question fails on the constraint
    other.join(10)
    recorder.join(20)

    assert "error" not in box, box
    assert (box["tally"].done, box["tally"].failed) == (2, 0)
    assert sorted(GeneratedItem.objects.filter(run=run).values_list("model", "dedup_key")) == sorted(
        [
            ("other", question_key(_unique_question("konsep1x1"))),
            ("test-model", question_key(SHARED_QUESTION)),
            ("test-model", question_key(_unique_question("konsep0x1"))),
        ]
    )
    filtered = sorted(FilteredDraft.objects.filter(run=run).values_list("reason", "concept_name", "detail"))
    assert [(reason, concept) for reason, concept, _ in filtered] == [
        ("duplicate_in_run", "konsep1x1"),
        ("duplicate_in_run", "kunjung"),
    ]
    assert filtered[0][2] == DUP_IN_CONSTRAINT  # refused by the database, not seen by the pipeline's check
    assert set(Call.objects.filter(run=run).values_list("status", flat=True)) == {"done"}
    assert Run.objects.filter(pk=run.pk).values_list("calls_done", "progress").get() == (2, 2)


def test_a_deadlock_between_two_workers_is_recorded_again_not_failed(llm_server, caplog):
    run, kind, endpoints, results = _generation_batch(llm_server)
    # The other worker inserts cat1's own question, then (once we wait on it) the shared question we
    # inserted first: each waits for the other. We started waiting first, so PostgreSQL's check after
    # deadlock_timeout (1 s) aborts our transaction; the other worker goes on and commits.
    other = OtherWorker(run, [_unique_question("konsep1x1"), SHARED_QUESTION])
    other.start()
    other.go[0].set()
    assert other.done[0].wait(10) and other.error is None

    caplog.set_level(logging.WARNING, logger="evaluation.results")
    recorder, box = _record_in_thread(run, kind, endpoints, results)
    wait_for(lambda: _lock_waiters() == 1, 10, "our batch to wait on the other worker's insert")
    other.go[1].set()
    assert other.done[1].wait(20) and other.error is None, other.error
    other.go[-1].set()
    other.join(10)
    recorder.join(30)

    assert "error" not in box, box
    assert [r.message for r in caplog.records if r.name == "evaluation.results"] == ["llm_run.write_retry"]
    retry = next(r for r in caplog.records if r.message == "llm_run.write_retry")
    assert "deadlock detected" in retry.error
    assert (box["tally"].done, box["tally"].failed) == (2, 0)
    # Recorded again after the other worker's commit: both of its questions are now taken.
    assert sorted(GeneratedItem.objects.filter(run=run).values_list("model", "dedup_key")) == sorted(
        [
            ("other", question_key(_unique_question("konsep1x1"))),
            ("other", question_key(SHARED_QUESTION)),
            ("test-model", question_key(_unique_question("konsep0x1"))),
        ]
    )
    assert sorted(FilteredDraft.objects.filter(run=run).values_list("reason", "concept_name")) == [
        ("duplicate_in_run", "konsep1x1"),
        ("duplicate_in_run", "kunjung"),
        ("duplicate_in_run", "kunjung"),
    ]
    calls = list(Call.objects.filter(run=run).values_list("status", "text"))
    assert [status for status, _ in calls] == ["done", "done"]
    assert all(json.loads(text.strip("`json\n")) for _, text in calls)
    assert Run.objects.filter(pk=run.pk).values_list("calls_done", "progress").get() == (2, 2)
