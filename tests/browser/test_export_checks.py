"""An admin clicks from the project page to the export page, starts the known-answer checks' export
beside the gold set's, and downloads the checks file: exactly the checks, each with its known answer."""

import json

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import log_in_by_cookie
from tests.qc.views.test_export_checks import CHECK_ROW, checks_world

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_an_admin_downloads_the_checks_file_from_the_export_page(new_page, live_server, transactional_db):
    project = checks_world()
    page = new_page()
    log_in_by_cookie(page, project.memberships.get(role="admin").user, live_server.url)

    page.goto("/p/ka/")
    with page.expect_navigation():
        page.click("#stage-export-export_page")
    expect(page.locator("#export-checks-count")).to_contain_text("The project has 1 known-answer check.")
    with page.expect_navigation():
        page.click("#export-checks-start")
    link = page.locator("#export-runs tbody tr").first.locator("a[download][href$='/checks.jsonl']")
    expect(link).to_have_count(1, timeout=20_000)
    with page.expect_download() as info:
        link.click()

    with open(info.value.path(), encoding="utf-8") as handle:
        assert [json.loads(line) for line in handle if line.strip()] == [CHECK_ROW]
    expect(page.locator("#export-runs tbody tr").first.locator("td").nth(1)).to_have_text(
        "Known-answer checks (JSON Lines)"
    )
