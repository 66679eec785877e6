"""The dashboard's and report page's charts render in a browser: SVG with its accessible name, bars of the
right size, the numbers one click away, no console error (CSP violations fail through the fixture)."""

import pytest
from playwright.sync_api import expect

from tests.annotation.task_types.csqa.world import answered_world
from tests.browser.conftest import log_in
from tests.conftest import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

CHARTS = {
    "chart-progress": "Items by day and in all",
    "chart-status": "Items by status",
    "chart-agreement": "Agreement per category (Krippendorff's alpha)",
    "chart-judgments": "Judgments by day and in all",
}


def test_dashboard_charts_render_with_their_names_and_numbers(new_page, transactional_db):
    world = answered_world()
    world.admin.set_password(PASSWORD)  # the world's people have none (they never log in elsewhere)
    world.admin.save(update_fields=["password"])
    page = new_page()
    log_in(page, world.admin.username)  # before listening: the first page's favicon request is a 404
    errors = []
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("response", lambda response: response.status >= 400 and errors.append(f"{response.status} {response.url}"))

    page.goto("/p/xa/dashboard/")

    for chart_id, name in CHARTS.items():
        chart = page.locator(f"svg#{chart_id}")
        expect(chart).to_be_visible()
        expect(chart).to_have_attribute("role", "img")
        expect(page.get_by_role("img", name=name, exact=True)).to_have_count(1)
    # The culinary bar (alpha 3/13 of 360 units) is drawn with its class colour, not black.
    bar = page.locator("#chart-agreement rect").first
    assert bar.get_attribute("width") == "83.1"
    assert bar.evaluate("r => getComputedStyle(r).fill") == "rgb(180, 35, 24)"  # --danger: low agreement
    box = bar.bounding_box()
    assert box["width"] > 20 and box["height"] > 5
    expect(page.locator("#agreement-reading")).to_have_text(
        "All categories, judges only (the author is not counted): alpha 0.353: low agreement (12 judgments)."
    )
    # The numbers one click away.
    table = page.locator("#chart-agreement-table")
    expect(table).to_be_hidden()
    page.locator("#agreement-panel summary").click()
    expect(table).to_be_visible()
    expect(table.locator("tbody tr").first).to_have_text("culinary60.231alpha 0.231: low agreement")
    assert errors == []

    page.goto("/p/xa/report/")
    expect(page.get_by_role("img", name=CHARTS["chart-agreement"], exact=True)).to_be_visible()
    assert errors == []
