"""Preference rating as a rater does it: every response of a prompt scored with the keyboard only (digits on
the focused scale, Tab to the next one, b for the best), Enter submits; the statistics page moves."""

import pytest
from playwright.sync_api import expect

from annotation.models import Assignment, Judgment
from tests.annotation.task_types.preference.world import make_world, plan
from tests.browser.conftest import log_in

pytestmark = [pytest.mark.browser, pytest.mark.flow, pytest.mark.django_db(transaction=True)]

SCORES = [(5, 4), (3, 3), (4, 5), (1, 2), (2, 1)]  # (relevance, fluency) by shown position


def test_a_rater_rates_all_responses_with_the_keyboard_and_the_statistics_move(new_page, transactional_db):
    world = make_world(raters_per_group=1)
    plan(world)
    rater = world.raters["A"][0]

    admin = new_page()
    log_in(admin, world.admin.username)
    admin.goto("/p/pref/reports/")
    expect(admin.locator("#pref-ratings")).to_have_text("0")

    page = new_page()
    log_in(page, rater.username)
    page.goto("/p/pref/judge/")
    page.wait_for_url("**/p/pref/judge/*/")
    expect(page.locator("#scale-relevance-1")).to_be_focused()
    for position, (relevance, fluency) in enumerate(SCORES, start=1):
        expect(page.locator(f"#scale-relevance-{position}")).to_be_focused()
        page.keyboard.press(str(relevance))
        page.keyboard.press("Tab")
        expect(page.locator(f"#scale-fluency-{position}")).to_be_focused()
        page.keyboard.press(str(fluency))
        if position == 3:
            page.keyboard.press("b")
        expect(page.locator(f'input[name="relevance_{position}"][value="{relevance}"]')).to_be_checked()
        expect(page.locator(f'input[name="fluency_{position}"][value="{fluency}"]')).to_be_checked()
        if position < len(SCORES):
            page.keyboard.press("Tab")
    expect(page.locator("#best-3")).to_be_checked()
    with page.expect_navigation():
        page.keyboard.press("Enter")

    assignment = Assignment.objects.get(project=world.project, user=rater, status="done")
    judgment = Judgment.objects.get(item_id=assignment.target_item_id, user=rater)
    order = judgment.value["order"]
    assert judgment.value["best"] == order[2]
    assert judgment.value["ratings"] == {order[i]: {"relevance": r, "fluency": f} for i, (r, f) in enumerate(SCORES)}
    admin.goto("/p/pref/reports/")
    expect(admin.locator("#pref-ratings")).to_have_text("5")
    expect(admin.locator("#pref-rated-prompts")).to_have_text("1")
