"""On a phone held upright (390 x 844), in English, Indonesian and Arabic: an admin clicks from the project
page to the export page, reads how many known-answer checks the project has in their language, starts the
checks' export and sees its run listed. Nothing scrolls sideways or is clipped, no console error, no
answer >= 400."""

from __future__ import annotations

import pytest
from django.utils import translation
from django.utils.translation import gettext, ngettext
from playwright.sync_api import expect

from tests.browser.test_phone_setup_pages import LANGUAGES, _fits, _phone
from tests.qc.views.test_export_checks import checks_world

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _words(language: str) -> tuple[str, str]:
    with translation.override(language):
        count = ngettext(
            "The project has %(n)s known-answer check.", "The project has %(n)s known-answer checks.", 1
        ) % {"n": 1}
        return count, gettext("Known-answer checks (JSON Lines)")


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_checks_export_fits_a_phone_in_every_language(new_page, live_server, transactional_db, language):
    project = checks_world()
    admin = project.memberships.get(role="admin").user
    count, format_label = _words(language)
    if language != "en":
        assert (count, format_label) != _words("en")  # translated, not English leaking through
    errors: list[str] = []
    page = _phone(new_page, live_server, admin, language, errors)

    page.goto(f"/p/{project.slug}/")
    with page.expect_navigation():
        page.click("#stage-export-export_page")
    expect(page.locator("#export-checks-count")).to_contain_text(count)
    page.locator("#export-checks").scroll_into_view_if_needed()
    _fits(page, "#export-checks h2, #export-checks p, #export-checks-start")

    with page.expect_navigation():
        page.click("#export-checks-start")
    run = page.locator("#export-runs tbody tr").first
    expect(run.locator("a[download][href$='/checks.jsonl']")).to_have_count(1, timeout=20_000)
    expect(run.locator("td").nth(1)).to_have_text(format_label)
    _fits(page, "#export-checks-start")
    assert errors == []
