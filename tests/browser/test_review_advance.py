"""A reviewer decides three items in a row without going back to the queue, deciding with the
keys (A approve, X reject, R revise, digits for error types), which stay quiet while typing feedback."""

import re

import pytest
from playwright.sync_api import expect

from annotation.models import Item
from annotation.services.assignments import assignment_plan_authoring
from tests.annotation.views.helpers import submitted_item
from tests.browser.conftest import log_in
from tests.conftest import VALID_PAYLOAD
from tests.factories import make_csqa_project

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_reviewer_decides_three_items_in_a_row_with_the_keys(new_page, transactional_db):
    csqa = make_csqa_project(slug="adv", annotators=3, categories=2, concepts_per_category=1)
    assignment_plan_authoring(project=csqa.project)
    items = [submitted_item(csqa, VALID_PAYLOAD) for _ in range(3)]
    page = new_page()
    visited: list[str] = []
    page.on("framenavigated", lambda frame: visited.append(frame.url) if frame == page.main_frame else None)
    log_in(page, csqa.reviewer.username)

    page.goto("/p/adv/review/")
    page.click("#review-next")
    page.wait_for_url(f"**/p/adv/review/{items[0].pk}/")
    expect(page.locator("label.decision-option").first).to_contain_text("A")
    expect(page.locator("#guidelines-drawer")).to_have_attribute("open", "")  # wide screen: open

    # 1: approve with the keys only.
    page.locator(".page-head h1").click()
    page.keyboard.press("a")
    expect(page.locator("input[name=decision][value=approve]")).to_be_checked()
    page.keyboard.press("Control+Enter")
    page.wait_for_url(f"**/p/adv/review/{items[1].pk}/")
    expect(page.locator(".messages")).to_contain_text("Approved.")

    # 2: keys typed into the feedback are text, not decisions; then X rejects.
    page.locator("#id_feedback").fill("")
    page.locator("#id_feedback").type("Tidak relevan, ambigu: 1 2 x r a")
    for value in ("approve", "revise", "reject"):
        expect(page.locator(f"input[name=decision][value={value}]")).not_to_be_checked()
    expect(page.locator("#error-type-typo")).not_to_be_checked()
    page.locator(".page-head h1").click()
    page.keyboard.press("x")
    expect(page.locator("input[name=decision][value=reject]")).to_be_checked()
    page.keyboard.press("Control+Enter")
    page.wait_for_url(f"**/p/adv/review/{items[2].pk}/")
    expect(page.locator(".messages")).to_contain_text("Rejected.")

    # 3: R asks for a revision, 1 ticks the first error type; the queue is then empty.
    page.locator(".page-head h1").click()
    page.keyboard.press("r")
    page.keyboard.press("1")
    expect(page.locator("#error-type-typo")).to_be_checked()
    page.locator("#id_feedback").fill("Ada salah ketik.")
    page.locator("#id_feedback").press("Control+Enter")
    page.wait_for_url("**/p/adv/review/")
    expect(page.locator(".messages")).to_contain_text("the queue is empty")

    statuses = dict(Item.objects.filter(pk__in=[i.pk for i in items]).values_list("pk", "status"))
    assert [statuses[i.pk] for i in items] == ["approved", "rejected", "revision_requested"]
    queue_visits = [url for url in visited if re.search(r"/p/adv/review/$", url)]
    assert len(queue_visits) == 2  # at the start and after the last item, never in between
    assert [url.rsplit("/review/", 1)[1] for url in visited if "/review/" in url] == [
        "",
        f"{items[0].pk}/",
        f"{items[1].pk}/",
        f"{items[2].pk}/",
        "",
    ]


def test_on_a_small_screen_the_guidelines_drawer_starts_closed(new_page, transactional_db):
    csqa = make_csqa_project(slug="adv", annotators=2, categories=1, concepts_per_category=1)
    assignment_plan_authoring(project=csqa.project)
    item = submitted_item(csqa, VALID_PAYLOAD)
    page = new_page()
    page.set_viewport_size({"width": 390, "height": 800})
    log_in(page, csqa.reviewer.username)

    page.goto(f"/p/adv/review/{item.pk}/")

    drawer = page.locator("#guidelines-drawer")
    expect(drawer).not_to_have_attribute("open", "")
    expect(page.locator("#guidelines")).to_be_hidden()
    page.click("#guidelines-toggle")
    expect(page.locator("#guidelines")).to_be_visible()
    assert page.evaluate("getComputedStyle(document.getElementById('guidelines-drawer')).position") == "fixed"
