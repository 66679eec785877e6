"""The NLI author page on a phone (390 x 844, touch, no keyboard): the premise stays in view after load
(no autofocus scrolls it away) and no key chip is shown; on a desktop the first hypothesis has the focus
and the chips are shown."""

import pytest
from playwright.sync_api import expect

from tests.annotation.task_types.nli.world import PREMISES, make_nli_project, writing_assignment
from tests.browser.conftest import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
IN_VIEW = """(element) => {
  const box = element.getBoundingClientRect();
  return [box.top >= 0, box.bottom <= window.innerHeight, box.height > 0];
}"""


def _author_page(new_page, **options):
    world = make_nli_project(slug="nli-phone", premises=PREMISES[:1])
    assignment = writing_assignment(world)
    page = new_page(**options)
    log_in(page, assignment.user.username)
    page.goto(f"/p/{world.project.slug}/author/{assignment.pk}/")
    page.wait_for_load_state("load")  # deferred scripts (author.js) have run
    return page


def test_on_a_phone_the_premise_stays_in_view_and_no_key_chip_is_shown(new_page, transactional_db):
    page = _author_page(new_page, **PHONE)

    expect(page.locator("#premise")).to_contain_text("Pulau Nias")
    assert page.evaluate("window.scrollY") == 0
    assert page.locator("#premise").evaluate(IN_VIEW) == [True, True, True]
    assert page.evaluate("document.activeElement.tagName") == "BODY"
    chips = page.locator("kbd.hotkey")
    assert chips.count() == 6 * 3 + 2  # e, n, c beside each row's label; Save draft and Submit
    assert [chips.nth(i).is_visible() for i in range(chips.count())] == [False] * chips.count()
    expect(page.locator(".keys-hint").first).to_be_hidden()


def test_on_a_desktop_the_first_hypothesis_has_the_focus_and_the_key_chips_are_shown(new_page, transactional_db):
    page = _author_page(new_page, viewport={"width": 1280, "height": 800})

    expect(page.locator("#id_hypothesis_1")).to_be_focused()
    expect(page.locator(".keys-hint").first).to_be_visible()
    expect(page.locator("#submit-item kbd.hotkey")).to_be_visible()
    chips = page.locator("kbd.hotkey")
    assert [chips.nth(i).is_visible() for i in range(chips.count())] == [True] * (6 * 3 + 2)
