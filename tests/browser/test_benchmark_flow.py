"""An admin starts a benchmark from the Benchmarks page (two endpoints, two templates), watches the
progress bar reach 100% while a real Celery worker asks the scripted test server, opens the
leaderboard with its heatmap, and one item's drill-down."""

import pytest
from playwright.sync_api import expect

from annotation.models import Membership
from evaluation.models import Prediction, Run
from tests.browser.conftest import log_in
from tests.conftest import PASSWORD
from tests.evaluation.benchmarks.world import choice_project
from tests.evaluation.helpers import llm_server, llm_server_process, make_endpoint  # noqa: F401
from tests.evaluation.test_run_workers import workers  # noqa: F401  (real worker processes)
from tests.factories import UserFactory
from tests.qc.test_run_faults import broker  # noqa: F401

pytestmark = [pytest.mark.browser, pytest.mark.celery, pytest.mark.django_db(transaction=True)]
HANDLER = "tests.evaluation.benchmarks.script:reply"


def test_start_a_benchmark_watch_it_finish_and_read_the_leaderboard(new_page, llm_server, workers):  # noqa: F811
    llm_server.configure(handler=HANDLER, delay_ms=100)
    make_endpoint(llm_server, name="alpha", model="alpha-model", max_concurrency=2)
    make_endpoint(llm_server, name="beta", model="beta-model", max_concurrency=2)
    project, items = choice_project()
    admin = UserFactory(username="pengelola")
    admin.set_password(PASSWORD)
    admin.save(update_fields=["password"])
    Membership.objects.create(project=project, user=admin, role="admin")
    workers.start("browser", beat=True)
    page = new_page()
    log_in(page, admin.username)

    page.goto("/p/bench-mc/runs/")
    page.click("#benchmarks-link a")
    page.wait_for_url("**/p/bench-mc/benchmarks/")
    page.check("input[name=endpoints][value=alpha]")
    page.check("input[name=endpoints][value=beta]")
    page.check("input[name=templates][value=question_choices]")
    page.check("input[name=templates][value=helm]")
    page.select_option("#id_gold_key", "author")
    page.click("#benchmark-start-button")
    page.wait_for_url("**/p/bench-mc/runs/*/")
    page.evaluate("window.__sameDocument = true")

    expect(page.locator("#run-percent")).to_have_text("100%", timeout=30_000)
    expect(page.locator("#run-status")).to_have_text("Done")
    assert page.evaluate("window.__sameDocument") is True  # htmx swapped the bar in; no reload
    assert page.get_attribute("#run-bar", "max") == "20"
    run = Run.objects.get()
    assert (run.kind, run.status, Prediction.objects.filter(run=run).count()) == ("benchmark", "done", 20)

    page.click("#run-leaderboard-link")
    page.wait_for_url(f"**/p/bench-mc/benchmarks/{run.pk}/")
    expect(page.locator("#overall-accuracy")).to_have_text("45.0%")
    expect(page.locator("#heatmap")).to_be_visible()
    expect(page.locator("#heatmap .heat-cell")).to_have_count(4)
    expect(page.locator("#bar-chart .bar")).to_have_count(3)  # alpha, beta, humans
    page.click("#heatmap-numbers summary")
    expect(page.locator("#heatmap-table")).to_contain_text("83.3%")  # makanan x alpha: 5 of 6

    page.click(f"#leaderboard-unparsed a[href$='/items/{items[3].pk}/'] >> nth=0")
    page.wait_for_url(f"**/p/bench-mc/benchmarks/{run.pk}/items/{items[3].pk}/")
    expect(page.locator("#item-gold")).to_have_text("D")
    expect(page.locator(".prediction")).to_have_count(4)
    expect(page.locator(".prediction-reply").first).to_have_text("Saya tidak tahu.")
