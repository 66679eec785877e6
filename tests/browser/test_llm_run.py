"""An admin registers a model endpoint in the page, tests it, starts a responses run and watches the
progress bar reach 100% without reloading, while a real Celery worker makes the calls."""

import pytest
from playwright.sync_api import expect

from evaluation.models import Call, Run
from tests.browser.conftest import log_in
from tests.conftest import PASSWORD
from tests.evaluation.helpers import llm_server, llm_server_process  # noqa: F401  (the test LLM server)
from tests.evaluation.test_run_workers import workers  # noqa: F401  (real worker processes)
from tests.qc.test_run_faults import broker  # noqa: F401

pytestmark = [pytest.mark.browser, pytest.mark.celery, pytest.mark.django_db(transaction=True)]


def test_register_an_endpoint_start_a_run_and_watch_it_finish(new_page, csqa, llm_server, workers):  # noqa: F811
    llm_server.configure(delay_ms=150)
    admin = csqa.admin
    admin.is_staff = True
    admin.set_password(PASSWORD)
    admin.save(update_fields=["is_staff", "password"])
    workers.start("browser", beat=True)
    page = new_page()
    log_in(page, admin.username)

    page.goto("/evaluation/endpoints/new/")
    page.fill("#id_name", "local")
    page.fill("#id_base_url", llm_server.url)
    page.fill("#id_model", "test-model")
    page.check("#id_is_local")
    page.fill("#id_max_concurrency", "2")
    page.click("#endpoint-save")
    page.wait_for_url("**/evaluation/endpoints/")
    page.click("button:has-text('Test')")
    expect(page.locator("[id$='-reply']")).to_contain_text("Answered in")

    page.goto("/p/demo/runs/")
    page.select_option("#id_endpoint", "local")
    page.fill("#id_prompts", "\n".join(f"Pertanyaan nomor {i}" for i in range(30)))
    page.click("#run-start-button")
    page.wait_for_url("**/p/demo/runs/*/")
    page.evaluate("window.__sameDocument = true")
    expect(page.locator("#run-status")).to_have_text("Running", timeout=15_000)
    first = int(page.get_attribute("#run-bar", "value"))

    expect(page.locator("#run-percent")).to_have_text("100%", timeout=30_000)
    expect(page.locator("#run-status")).to_have_text("Done")
    assert page.evaluate("window.__sameDocument") is True  # htmx swapped the bar in; no reload
    assert page.get_attribute("#run-bar", "value") == "30"
    assert page.get_attribute("#run-bar", "max") == "30"
    assert page.inner_text("#run-done") == "30"
    assert first < 30
    run = Run.objects.get()
    assert (run.status, run.calls_done, Call.objects.filter(status="done").count()) == ("done", 30, 30)
