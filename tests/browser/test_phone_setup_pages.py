"""On a phone held upright (390 x 844), in English, Indonesian and Arabic: the project page's stage panel
(NLI and preference, as admin and annotator), the screening set-up form with its training and pilot rows
and their preview, the Members page and a reviewer's countries. Each is reached by clicking from the home
page; none scrolls sideways, none clips a control it shows, none logs a console error or answers >= 400."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from annotation.models import UserPreferences
from annotation.task_types import get_task_type
from tests.browser.conftest import log_in_by_cookie
from tests.conftest import make_two_countries
from tests.protocol_reach import WORLDS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
LANGUAGES = ["en", "id", "ar"]

# The document's scroll width and width, and the controls (their markup's start) that do not lie wholly inside
# both the viewport and their panel (a panel that scrolls its table sideways would hide them).
LAYOUT = """(selector) => {
  const width = document.documentElement.clientWidth;
  const clipped = Array.from(document.querySelectorAll(selector)).filter((el) => {
    const box = el.getBoundingClientRect();
    const panel = (el.closest(".panel, .card") || document.documentElement).getBoundingClientRect();
    return box.width === 0 || box.left < Math.max(0, panel.left) || box.right > Math.min(width, panel.right);
  });
  return {
    scrollWidth: document.documentElement.scrollWidth,
    width: width,
    clipped: clipped.map((el) => el.outerHTML.slice(0, 80)),
  };
}"""


def _fits(page, controls: str) -> None:
    layout = page.evaluate(LAYOUT, controls)
    assert layout["scrollWidth"] <= layout["width"] == PHONE["width"], page.url
    assert layout["clipped"] == [], page.url


def _phone(new_page, live_server, user, language: str, errors: list[str]):
    UserPreferences.objects.update_or_create(user=user, defaults={"language": language, "time_zone": "Asia/Jakarta"})
    page = new_page(viewport=PHONE)
    page.on("console", lambda message: message.type == "error" and errors.append(f"{page.url}: {message.text}"))
    page.on("pageerror", lambda error: errors.append(f"{page.url}: {error}"))
    page.on("response", lambda r: r.status >= 400 and errors.append(f"{r.status} {r.url}"))
    log_in_by_cookie(page, user, live_server.url)
    page.goto("/")
    assert page.evaluate("[document.documentElement.lang, document.documentElement.dir]") == [
        language,
        "rtl" if language == "ar" else "ltr",
    ]
    return page


def _open_project(page, slug: str) -> None:
    with page.expect_navigation():
        page.click(f"#project-{slug} h2 a")


def _open_menu_link(page, link: str) -> None:
    """On a phone the project's links are folded into the menu."""
    page.click("#nav-menu > summary")
    with page.expect_navigation():
        page.click(link)


STAGES = {
    "admin": ["stage-authoring", "stage-review", "stage-judging", "stage-gold", "stage-export", "stage-models"],
    "annotator": ["stage-authoring", "stage-judging"],
}


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("task_type", ["nli", "preference"])
def test_the_stage_panel_fits_a_phone(new_page, live_server, transactional_db, task_type, language):
    slug, people = WORLDS[task_type]()
    errors: list[str] = []
    shown = {}
    for role in ("admin", "annotator"):
        page = _phone(new_page, live_server, people[role], language, errors)
        _open_project(page, slug)
        expect(page.locator("#stages")).to_be_visible()
        shown[role] = page.eval_on_selector_all("#stages > ol > li", "(items) => items.map((li) => li.id)")
        _fits(page, "#stages a.button, #stages h3")

    assert shown == STAGES
    assert errors == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_screening_setup_and_its_preview_fit_a_phone(new_page, live_server, transactional_db, language):
    slug, people = WORLDS["nli"]()
    errors: list[str] = []
    page = _phone(new_page, live_server, people["admin"], language, errors)
    _open_project(page, slug)
    _open_menu_link(page, "#nav-screening-setup")
    rows = (
        "#screening-setup-form input:not([type=hidden]), #screening-setup-form textarea, #screening-setup-form button"
    )

    _fits(page, rows)
    page.fill("#id_training-0-question", "Apa ibu kota Indonesia pada tahun 2024, menurut undang-undang?")
    page.fill("#id_training-0-options", "Jakarta\nSurabaya\nNusantara")
    page.fill("#id_training-0-answer", "1")
    page.fill("#id_training-0-feedback", "Jakarta masih ibu kota sampai pemindahan resmi.")
    page.fill("#id_pilot-0-question", "Pulau mana yang terbesar di Indonesia?")
    page.fill("#id_pilot-0-options", "Kalimantan\nJawa")
    page.fill("#id_pilot-0-answer", "1")
    with page.expect_navigation():
        page.click("#screening-preview-button")

    expect(page.locator("#preview-training-0 legend")).to_have_text(
        "Apa ibu kota Indonesia pada tahun 2024, menurut undang-undang?"
    )
    expect(page.locator("#preview-pilot-0 .badge.ok")).to_have_count(1)
    _fits(page, f"{rows}, #screening-preview label, #screening-preview legend")
    assert errors == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_members_page_and_the_review_countries_fit_a_phone(new_page, live_server, transactional_db, language):
    world = make_two_countries(slug="ac")
    errors: list[str] = []
    page = _phone(new_page, live_server, world.admin, language, errors)
    _open_project(page, "ac")
    _open_menu_link(page, "#nav-menu a[href='/p/ac/members/']")

    expect(page.locator("#members button.danger")).to_have_count(4)  # two authors, two reviewers
    _fits(page, "#members button, #members select, #members a")
    reviewer = world.project.memberships.get(user=world.reviewers["Jordan"])
    with page.expect_navigation():
        page.click(f"#countries-{reviewer.pk}")

    # ArabCulture names its countries: all of them are offered, the reviewer's own ticked.
    ticked = page.eval_on_selector_all(
        "#countries-form input[type=checkbox]:checked", "(boxes) => boxes.map((b) => b.value)"
    )
    assert ticked == ["Jordan"]
    expect(page.locator("#countries-form input[type=checkbox]")).to_have_count(
        len(get_task_type("sentence_completion").country_scope.countries)
    )
    _fits(
        page,
        "#countries-form label, #countries-form input:not([type=hidden]), #countries-form button, #countries-form a",
    )
    assert errors == []
