"""On a phone held upright (390 x 844), in English, Indonesian and Arabic: the dashboard's table of each
annotator's known-answer checks (with a paused annotator's resume button) and the item page's known-answer
form. Neither scrolls sideways nor clips a control it shows, logs a console error or answers >= 400."""

from __future__ import annotations

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from annotation.models import Item, Membership
from tests.annotation.views.test_known_answer_pages import checked_world
from tests.browser.test_phone_setup_pages import LANGUAGES, _fits, _phone

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_check_table_and_the_known_answer_form_fit_a_phone(new_page, live_server, transactional_db, language):
    project, people = checked_world("ka-phone", 4)
    Membership.objects.filter(project=project, user=people[3]).update(
        paused_at=timezone.now(), pause_figures={"checks": 2, "correct": 0, "below": 60, "since_resume": False}
    )
    check = Item.objects.filter(project=project, status="check").order_by("pk").first()
    errors: list[str] = []
    page = _phone(new_page, live_server, project.created_by, language, errors)

    page.goto(f"/p/{project.slug}/dashboard/")
    expect(page.locator("#checks-table tbody tr")).to_have_count(3)
    expect(page.locator("#paused-notice")).to_be_visible()
    page.locator("#checks-table").scroll_into_view_if_needed()
    _fits(page, "#checks-table button, #paused-notice")

    page.goto(f"/p/{project.slug}/items/{check.pk}/")
    expect(page.locator("#known-answer-input")).to_have_value("A")
    page.locator("#known-answer").scroll_into_view_if_needed()
    _fits(page, "#known-answer-input, #known-answer button, #known-answer label")

    assert errors == []
