"""From an NLI project's page an admin reaches the judging plan, the report and the export by
clicking only (no typed address after logging in), with no console error and no answer >= 400."""

import pytest
from playwright.sync_api import expect

from annotation.services.assignments import assignment_plan_authoring
from tests.annotation.task_types.nli.world import make_nli_project
from tests.browser.conftest import log_in
from tests.conftest import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_an_nli_admin_clicks_from_the_project_page_to_the_judging_plan_the_report_and_the_export(
    new_page, transactional_db
):
    world = make_nli_project(slug="nli")
    assignment_plan_authoring(project=world.project)
    world.admin.set_password(PASSWORD)
    world.admin.save(update_fields=["password"])
    page = new_page()
    log_in(page, world.admin.username)  # before listening: the first page's favicon request is a 404
    errors = []
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("response", lambda response: response.status >= 400 and errors.append(f"{response.status} {response.url}"))
    visited = []
    with page.expect_navigation():
        page.click("#project-nli h2 a")  # from the home page

    for link in ("#stage-judging-judging_plan", "#stage-gold-report_page", "#stage-export-export_page"):
        expect(page.locator("#stage-judging-text")).to_have_text("0 approved items wait for validation:")
        with page.expect_navigation():
            page.click(link)
        visited.append("/p/" + page.url.split("/p/", 1)[1])
        if link == "#stage-judging-judging_plan":
            expect(page.locator("h1")).to_have_text("Validation")
            expect(page.locator("#plan-rule")).to_contain_text("of the approved items, drawn with seed")
        with page.expect_navigation():
            page.click(".project-name")  # back to the project page through the navigation

    assert visited == ["/p/nli/judging/plan/", "/p/nli/report/", "/p/nli/export/"]
    assert errors == []
