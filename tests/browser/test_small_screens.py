"""A phone held upright (390 px wide): no page of the main flow scrolls sideways, the menu is folded."""

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import log_in
from tests.browser.flow_pages import make_flow_pages

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SLOW_MACHINE_MS = 30_000

PHONE = {"width": 390, "height": 844}
WIDTHS = "() => [document.documentElement.scrollWidth, window.innerWidth]"


def test_no_page_of_the_flow_is_wider_than_a_phone(new_page, transactional_db):
    flow = make_flow_pages(slug="phone")
    pages = {role: new_page() for role in ("anonymous", "annotator", "reviewer", "admin")}
    for page in pages.values():
        page.set_default_timeout(SLOW_MACHINE_MS)  # some twenty pages in a row, on a shared machine
    for role, user in (("annotator", flow.annotator), ("reviewer", flow.reviewer), ("admin", flow.admin)):
        log_in(pages[role], user.username)
    for page in pages.values():
        page.set_viewport_size(PHONE)

    too_wide, unfolded = {}, []
    for role, path in flow.pages:
        page = pages[role]
        assert page.goto(path).status == 200, path
        page.wait_for_load_state("load")  # deferred scripts (nav.js, tables.js) have run
        scroll_width, inner_width = page.evaluate(WIDTHS)
        if scroll_width != inner_width:
            too_wide[f"{role} {path}"] = scroll_width
        if role != "anonymous" and page.evaluate("document.getElementById('nav-menu').open"):
            unfolded.append(f"{role} {path}")

    assert (too_wide, unfolded) == ({}, [])


def test_the_folded_menu_opens_and_tables_show_their_column_names(new_page, transactional_db):
    flow = make_flow_pages(slug="menu")
    page = new_page()
    log_in(page, flow.admin.username)
    page.set_viewport_size(PHONE)
    page.goto(f"/p/{flow.slug}/members/")

    members_link = page.locator("#nav-menu a", has_text="Members")
    expect(members_link).to_be_hidden()
    page.click("#nav-menu > summary")
    expect(members_link).to_be_visible()
    # Each cell of a reflowed table is labelled with its column's header, shown before its content.
    first_cell = page.locator("main table tbody tr:first-child td").first
    expect(page.locator("main table thead th").first).to_have_text("User")
    expect(first_cell).to_have_attribute("data-label", "User")
    before = first_cell.evaluate("(td) => getComputedStyle(td, '::before').content")
    assert before == '"User"'

    # Back on a wide screen the menu is open again and its summary is gone.
    page.set_viewport_size({"width": 1200, "height": 800})
    expect(page.locator("#nav-menu > summary")).to_be_hidden()
    expect(members_link).to_be_visible()
    assert page.evaluate("document.getElementById('nav-menu').open") is True
