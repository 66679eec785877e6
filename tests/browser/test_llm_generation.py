"""The browser flow for direct generation (LLM_GEN): an admin registers an endpoint in the page,
starts a generation run on the Generate page and watches the progress bar reach 100% without reloading,
while a real Celery worker calls the test server, which answers with the released id-csqa drafts; a
reviewer then finds the drafts in the review queue filtered by source and opens one."""

import pytest
from playwright.sync_api import expect

from annotation.models import Category, Concept, Item, Membership
from annotation.services.projects import membership_add, project_create
from evaluation.models import Call, Run
from tests.browser.conftest import log_in
from tests.conftest import PASSWORD
from tests.evaluation.helpers import llm_server, llm_server_process  # noqa: F401  (the test LLM server)
from tests.evaluation.released_drafts import released_by_concept
from tests.evaluation.test_run_workers import workers  # noqa: F401  (real worker processes)
from tests.factories import UserFactory
from tests.qc.test_run_faults import broker  # noqa: F401

pytestmark = [pytest.mark.browser, pytest.mark.celery, pytest.mark.django_db(transaction=True)]

HANDLER = "tests.evaluation.released_drafts:reply"
# The handler serves each concept's released questions in order, counted per model name in the server's
# process (shared by the session): a model name of this test's own starts from each concept's first.
MODEL = "browser-generation-model"
SLUG = "gen"
CATEGORIES = ("place", "culture", "history")
CHOSEN = ["culture", "place"]
CONCEPTS_PER_CATEGORY = 3
ROUNDS = 2  # "Items per concept": one call per category batch and round


def small_released_project():
    """Three of the released categories, their first three concepts each (names as in the released file,
    so the handler finds their drafts); one admin (staff: endpoints are registered by staff) and one reviewer."""
    admin = UserFactory(username=f"{SLUG}-admin", is_staff=True)
    project = project_create(
        creator=admin, name="Generation", slug=SLUG, task_type="csqa", languages=[{"code": "id", "name": "Indonesian"}]
    )
    reviewer = UserFactory(username=f"{SLUG}-reviewer")
    membership_add(project=project, user=reviewer, role=Membership.Role.REVIEWER)
    released = released_by_concept()
    served = {}
    for name in CATEGORIES:
        category = Category.objects.create(project=project, name=name)
        concepts = [concept for (c, concept) in released if c == name][:CONCEPTS_PER_CATEGORY]
        for concept in concepts:
            Concept.objects.create(project=project, category=category, name=concept)
            served[(name, concept)] = released[(name, concept)][:ROUNDS]
    return project, admin, reviewer, served


def test_start_a_generation_run_watch_it_finish_and_review_a_draft(new_page, llm_server, workers):  # noqa: F811
    llm_server.configure(handler=HANDLER, delay_ms=700)
    project, admin, reviewer, served = small_released_project()
    # What the server will serve for the two chosen categories: 3 concepts x 2 rounds, one draft each.
    drafts = [row for (category, _), rows in served.items() if category in CHOSEN for row in rows]
    assert len(drafts) == 12
    # One of them repeats another once quotes are ignored ("Untuk apa 'akuarium' biasanya digunakan?" and
    # "Untuk apa akuarium biasanya digunakan?"): the run keeps the first and filters the second.
    akuarium = [row["question"] for row in served[("place", "akuarium")]]
    assert akuarium == ["Untuk apa 'akuarium' biasanya digunakan?", "Untuk apa akuarium biasanya digunakan?"]
    expected_items = 11
    workers.start("browser-gen", beat=True)

    page = new_page()
    log_in(page, admin.username, PASSWORD)
    page.goto("/evaluation/endpoints/new/")
    page.fill("#id_name", "local-gen")
    page.fill("#id_base_url", llm_server.url)
    page.fill("#id_model", MODEL)
    page.check("#id_is_local")
    page.fill("#id_max_concurrency", "1")  # one call at a time: the bar moves in steps of a quarter
    page.click("#endpoint-save")
    page.wait_for_url("**/evaluation/endpoints/")

    page.goto(f"/p/{SLUG}/generate/")
    expect(page.locator("#id_categories option")).to_have_text(["culture", "history", "place"])
    page.select_option("#id_categories", CHOSEN)
    page.fill("#id_items_per_concept", str(ROUNDS))
    page.select_option("#id_endpoint", label=f"local-gen ({MODEL})")
    page.click("#generate-start")
    page.wait_for_url(f"**/p/{SLUG}/runs/*/")
    page.evaluate("window.__sameDocument = true")
    expect(page.locator("#run-status")).to_have_text("Running", timeout=15_000)
    first = int(page.get_attribute("#run-bar", "value"))

    expect(page.locator("#run-percent")).to_have_text("100%", timeout=30_000)
    expect(page.locator("#run-status")).to_have_text("Done")
    assert page.evaluate("window.__sameDocument") is True  # htmx swapped the bar in; no reload
    calls = 2 * ROUNDS  # one batch of 3 concepts per chosen category, per round
    assert (page.get_attribute("#run-bar", "value"), page.get_attribute("#run-bar", "max")) == (str(calls), str(calls))
    assert (page.inner_text("#run-done"), page.inner_text("#run-failed"), page.inner_text("#run-total")) == (
        str(calls),
        "0",
        str(calls),
    )
    assert first < calls
    run = Run.objects.get()
    assert (run.kind, run.status, run.calls_done, run.calls_failed) == ("llm_gen", "done", calls, 0), workers.output()
    assert Call.objects.filter(run=run, status="done").count() == calls
    assert llm_server.stats()["chat"] == calls
    # The drafts panel is outside the polled part: a reload shows the run's outcome.
    page.reload()
    assert (page.inner_text("#drafts-created"), page.inner_text("#drafts-filtered")) == (str(expected_items), "1")
    expect(page.locator("#drafts-reasons [data-reason]")).to_have_text(["duplicate_in_run"])

    items = Item.objects.filter(project=project).select_related("current_version", "concept__category")
    assert items.count() == expected_items
    assert set(items.values_list("source", "status", "author")) == {("llm_gen", "submitted", None)}
    assert {i.concept.category.name for i in items} == set(CHOSEN)  # nothing for the category not chosen
    assert {i.current_version.payload["question"] for i in items} <= {d["question"] for d in drafts}

    reviewing = new_page()
    log_in(reviewing, reviewer.username, PASSWORD)
    reviewing.goto(f"/p/{SLUG}/review/")
    reviewing.select_option("#queue-source", "llm_gen")
    reviewing.click("#queue-source-filter button[type=submit]")
    reviewing.wait_for_url(f"**/p/{SLUG}/review/?source=llm_gen")
    expect(reviewing.locator("#queue-total")).to_have_text(str(expected_items))
    rows = reviewing.locator("#review-items tbody tr")
    expect(rows).to_have_count(expected_items)
    ordered = list(items.order_by("current_version__submitted_at", "id"))  # the queue's order (qc.review_queue)
    assert rows.evaluate_all("rows => rows.map(row => row.id)") == [f"queue-item-{item.pk}" for item in ordered]

    draft = ordered[0]
    reviewing.click(f"#queue-item-{draft.pk} a")
    reviewing.wait_for_url(f"**/p/{SLUG}/review/{draft.pk}/")
    expect(reviewing.locator("#current .question")).to_have_text(draft.current_version.payload["question"])
    expect(reviewing.locator("#current .concept")).to_have_text(draft.concept.name)
    expect(reviewing.locator("#current .choices li")).to_have_count(5)
    expect(reviewing.locator("#item-status")).to_have_text("Submitted")
