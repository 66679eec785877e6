"""A right-to-left (Arabic) project seen with an English interface: the item's text is right to left, the
controls around it (the review decision panel, the version line, the item page's frame) stay left to right
as the interface language lays them out (computed `direction`)."""

import pytest
from playwright.sync_api import expect

from tests.annotation.task_types.sentence_completion.world import authored_world
from tests.browser.conftest import log_in
from tests.conftest import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _direction(page, selector: str) -> str:
    return page.eval_on_selector(selector, "el => getComputedStyle(el).direction")


def test_an_arabic_item_is_rtl_while_the_english_controls_stay_ltr(new_page):
    world = authored_world(slug="acd", password=PASSWORD)
    page = new_page()
    log_in(page, world.reviewers["Egypt"].username)

    page.goto("/p/acd/review/")
    with page.expect_navigation():
        page.click("#review-next")

    expect(page.locator("#decide")).to_contain_text("Save decision")
    assert page.evaluate("document.documentElement.dir") == "ltr"
    assert page.evaluate("document.documentElement.lang") == "en"
    for control in ("#review-form", "#field-decision", "#field-error_types", "#decide", "#review-keys", "#current"):
        assert _direction(page, control) == "ltr", control
    for content in ("#item-text", ".completion-item"):
        assert _direction(page, content) == "rtl", content
    assert page.get_attribute("#item-text", "lang") == "ar"

    item_url = page.url.replace("/review/", "/items/")
    admin = new_page()
    log_in(admin, world.admin.username)
    admin.goto(item_url)
    assert _direction(admin, "#current") == "ltr"
    assert _direction(admin, "#item-text") == "rtl"
